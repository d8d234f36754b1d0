/**
 * `mcp-gen client --from-url` against a protected server. With an `Authorization` header given
 * (`--header`), that is sent as is. Otherwise, on a terminal, a 401 starts the OAuth sign-in: the
 * authorization URL is printed, and the browser's redirect comes back to a loopback listener on
 * 127.0.0.1. Piped, a 401 fails with a line saying what to give. Either way the command learns
 * whether the server asked for authorization (the generated client then gets `--auth`).
 * Tokens live in this process only: never in the snapshot, the ledger or generated code.
 */
import type { AuthOption, ServerLocation } from '../runtime/client/index.js';

export interface SignIn {
  /** The location with the sign-in hooked in. */
  location: ServerLocation;
  /** Whether the server refused a request for want of authorization (a 401). */
  refused: () => boolean;
  close: () => Promise<void>;
}

export async function withSignIn(location: ServerLocation, interactive: boolean, print: (line: string) => void): Promise<SignIn> {
  if (!('url' in location)) return { location, refused: () => false, close: () => Promise.resolve() };
  let refused = false;
  const hasAuthorization = Object.keys(location.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  if (hasAuthorization || !interactive) {
    // Only watches: the header (if any) is the credential; a 401 then fails the introspection.
    const watch: AuthOption = ({ refused: wasRefused }) => {
      if (wasRefused) refused = true;
      return undefined;
    };
    return { location: { ...location, auth: watch }, refused: () => refused, close: () => Promise.resolve() };
  }
  const { loopbackRedirect } = await import('../runtime/client/auth/index.js');
  const loopback = await loopbackRedirect({
    open: (url) => print(`The server needs you to sign in. Open this URL in a browser:\n\n  ${url.href}\n\nwaiting for the redirect to ${loopbackUrlOf(url)}…`),
  });
  return {
    location: {
      ...location,
      auth: {
        clientName: 'mcp-gen',
        redirectUrl: loopback.redirectUrl,
        openAuthorizationUrl: (url) => {
          refused = true;
          return loopback.openAuthorizationUrl(url);
        },
      },
    },
    refused: () => refused,
    close: () => loopback.close(),
  };
}

function loopbackUrlOf(url: URL): string {
  return url.searchParams.get('redirect_uri') ?? 'the loopback address';
}
