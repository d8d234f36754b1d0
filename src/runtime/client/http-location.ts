/**
 * Where a Streamable HTTP server is, as an app names it to `connect` (`url`, `headers`, `auth`,
 * `maxMessageBytes`), turned into its transport on the entry's wire (connect.ts, connect-browser.ts).
 */
import { DEFAULT_MAX_MESSAGE_BYTES } from './errors.js';
import { httpAuthFor, type AuthOption } from './http-auth.js';
import type { Exchange } from './http-wire.js';
import { StreamableHttpTransport } from './http.js';

/** `connect({ url, headers, auth })`: where a Streamable HTTP server is, and how to present ourselves. */
export interface HttpLocation {
  url: string | URL;
  headers?: Readonly<Record<string, string>>;
  auth?: AuthOption;
  /** As `HttpClientOptions.maxMessageBytes`. Default 64 MiB. */
  maxMessageBytes?: number;
}

/** The transport for an HTTP location, on the entry's wire (connect.ts / connect-browser.ts). */
export async function httpTransport(
  location: HttpLocation,
  exchange: Exchange,
): Promise<StreamableHttpTransport> {
  const auth =
    location.auth === undefined
      ? undefined
      : await httpAuthFor(location.auth, new URL(location.url));
  return new StreamableHttpTransport({
    url: location.url,
    exchange,
    ...(location.headers === undefined ? {} : { headers: location.headers }),
    ...(auth === undefined ? {} : { auth }),
    maxMessageBytes: location.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
  });
}
