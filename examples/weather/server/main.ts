/**
 * Starts the MCP server "Weather".
 *
 * Serves stdio by default; with `--http` it serves Streamable HTTP at
 * `http://<host>:<port>/mcp` (`--port`, default 3000; `--host`, default 127.0.0.1).
 * With `--redis <url>` (or `MCP_REDIS_URL`) several processes share sessions and resumable
 * streams through Redis (`npm install redis@6.3.1` first); give them one `MCP_STATE_SECRET`.
 */
import { parseArgs } from 'node:util';
import { createServer } from './generated/server.js';
import { handlers } from './handlers/index.js';

const { values } = parseArgs({
  options: {
    http: { type: 'boolean', default: false },
    port: { type: 'string', default: '3000' },
    host: { type: 'string', default: '127.0.0.1' },
    redis: { type: 'string' },
  },
});

// Stdout belongs to the protocol when serving stdio: everything else goes to stderr.
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
// Processes that share clients must sign 2026-07-28 request states with the same secret.
const stateSecret = process.env['MCP_STATE_SECRET'];
const server = createServer(
  handlers,
  stateSecret === undefined ? { logger: log } : { logger: log, stateSecret },
);

if (values.http) {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    log(`--port must be a number from 0 to 65535 (0: any free port), not ${values.port}`);
    process.exit(2);
  }
  // With Redis, sessions and resumable streams are shared by every process using it.
  const redisUrl = values.redis ?? process.env['MCP_REDIS_URL'];
  const stores =
    redisUrl === undefined
      ? {}
      : await (
          await import('./generated/runtime/redis-store.js')
        ).connectRedisStores(redisUrl, { log });
  const listening = await server.listenHttp({ port, host: values.host, path: '/mcp', ...stores });
  log(`listening on ${listening.url}`);
} else {
  await server.serveStdio();
}
