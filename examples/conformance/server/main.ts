/**
 * Starts the MCP server "mcp-gen conformance server".
 *
 * Serves stdio by default; with `--http` it serves Streamable HTTP at
 * `http://<host>:<port>/mcp` (`--port`, default 3000; `--host`, default 127.0.0.1).
 */
import { parseArgs } from 'node:util';
import { createServer } from './generated/server.js';
import { handlers } from './handlers/index.js';

const { values } = parseArgs({
  options: {
    http: { type: 'boolean', default: false },
    port: { type: 'string', default: '3000' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

// Stdout belongs to the protocol when serving stdio: everything else goes to stderr.
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
const server = createServer(handlers, { logger: log });

if (values.http) {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    log(`--port must be a number from 0 to 65535 (0: any free port), not ${values.port}`);
    process.exit(2);
  }
  const listening = await server.listenHttp({ port, host: values.host, path: '/mcp' });
  log(`listening on ${listening.url}`);
} else {
  await server.serveStdio();
}
