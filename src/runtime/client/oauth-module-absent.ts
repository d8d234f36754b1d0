/**
 * `oauth-module.ts` of a client generated without `--auth`: there is no `auth/` folder to load, so
 * an OAuth configuration is refused with what to do instead.
 */
import type { HttpAuth, OAuthOptions } from './http-auth.js';

export function loadOAuth(): Promise<{
  oauthAuth: (options: OAuthOptions, serverUrl: URL) => HttpAuth;
}> {
  return Promise.reject(
    new Error(
      'connect({ auth: { … } }) needs the OAuth module: generate the client with `mcp-gen client --auth` (a token or a function giving one needs nothing more)',
    ),
  );
}
