/**
 * Where a Node app's client connects: a Streamable HTTP URL (on node:http, node-wire.ts) or a
 * server spawned over stdio. Each is loaded only when used. A client generated with `--browser`
 * has connect-browser.ts under this name instead.
 */
import type { HttpLocation } from './http-location.js';
import type { StdioServerParameters } from './stdio.js';
import type { ClientTransport } from './transport.js';

export type { HttpLocation } from './http-location.js';
export type { StdioServerParameters } from './stdio.js';

/** Where the server is: a Streamable HTTP URL, or a command to spawn over stdio. */
export type ServerLocation = HttpLocation | StdioServerParameters;

/** Said when a page bundles this client: its node:* imports are empty stubs there, which fail later without a word. */
const NOT_NODE =
  "This is mcp-gen's Node client (stdio, node:http), and this is not Node: regenerate it with `mcp-gen client … --browser` for a web page";

/** Builds the transport for a location. */
export async function transportFor(location: ServerLocation): Promise<ClientTransport> {
  if (typeof globalThis.process?.versions?.node !== 'string') throw new Error(NOT_NODE);
  if ('url' in location) {
    const [{ httpTransport }, { nodeExchange }] = await Promise.all([
      import('./http-location.js'),
      import('./node-wire.js'),
    ]);
    return httpTransport(location, nodeExchange);
  }
  const { StdioClientTransport } = await import('./stdio.js');
  return new StdioClientTransport(location);
}
