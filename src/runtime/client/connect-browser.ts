/**
 * connect.ts of a client generated with `--browser`: Streamable HTTP on `fetch` (fetch-wire.ts), and
 * nothing else, so nothing the client imports reaches a `node:*` module. There is no stdio here: a
 * page cannot spawn a server.
 */
import { httpTransport, type HttpLocation } from './http-location.js';
import { fetchExchange } from './fetch-wire.js';
import type { ClientTransport } from './transport.js';

export type { HttpLocation } from './http-location.js';

/** Where the server is: a Streamable HTTP URL (the page's origin must be one the server allows). */
export type ServerLocation = HttpLocation;

/** Builds the transport for a location. */
export function transportFor(location: ServerLocation): Promise<ClientTransport> {
  return httpTransport(location, fetchExchange);
}
