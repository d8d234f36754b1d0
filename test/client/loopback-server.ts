/**
 * A node:http server on loopback that hands each request to a test with its body parsed as JSON,
 * closed after every test of the file that asks for it. The client transport tests script the
 * server's side with it, byte by byte where they need to.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { Exchange } from '../../src/runtime/client/http-wire.js';
import { fetchExchange } from '../../src/runtime/client/fetch-wire.js';
import { nodeExchange } from '../../src/runtime/client/node-wire.js';

export type Handle = (req: IncomingMessage, body: any, res: ServerResponse) => void | Promise<void>;

/** Both client wires, for `describe.each`. */
export const WIRES: [string, Exchange][] = [
  ['node:http', nodeExchange],
  ['fetch', fetchExchange],
];

/** Registers the closing after each test; `listen` starts this test's server and gives its /mcp URL. */
export function loopbackServer(): { listen: (handle: Handle) => Promise<string> } {
  let server: Server | undefined;
  afterEach(async () => {
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
  });
  return {
    async listen(handle) {
      const current = createServer((req, res) => {
        let text = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => (text += chunk));
        req.on('end', () => void handle(req, text === '' ? undefined : JSON.parse(text), res));
      });
      server = current;
      await new Promise<void>((resolve) => current.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(current.address() as AddressInfo).port}/mcp`;
    },
  };
}
