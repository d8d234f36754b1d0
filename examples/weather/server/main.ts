/**
 * Starts the MCP server "Weather".
 *
 * Serves stdio by default; with `--http` it serves Streamable HTTP at
 * `http://<host>:<port>/mcp` (`--port`, default 3000; `--host`, default 127.0.0.1).
 * With `--redis <url>` (or `MCP_REDIS_URL`) several processes share sessions and resumable
 * streams through Redis (`npm install redis@6.3.1` first); give them one `MCP_STATE_SECRET`.
 * With `--auth <issuer>` the HTTP server is an OAuth 2.1 resource server trusting that issuer's JWT
 * access tokens (the manifest's `auth` section and tool scopes; `--resource <url>` names the
 * endpoint when it is not http://127.0.0.1:3000/mcp).
 */
import { parseArgs } from 'node:util';
import { authSettings, createServer } from './generated/server.js';
import { handlers } from './handlers/index.js';

// Stdout belongs to the protocol when serving stdio: everything else goes to stderr.
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const usage = `Flags:
  --http              serve Streamable HTTP at /mcp instead of stdio
  --port <port>       HTTP port, 0 for any free one (default 3000)
  --host <host>       HTTP host (default 127.0.0.1, also MCP_HOST): loopback unless told otherwise
  --redis <url>       share sessions, streams and tasks through Redis (also MCP_REDIS_URL)
  --auth <issuer>     be an OAuth resource server trusting this issuer's JWT access tokens,
                      e.g. http://127.0.0.1:9400 from 'mcp-gen dev-issuer'
  --resource <url>    the endpoint's URL with --auth (default http://<host>:<port>/mcp)
  -h, --help          print these flags`;

// A mistyped flag gets one line and exit 2, not a stack trace.
function readFlags() {
  try {
    return parseArgs({
      options: {
        http: { type: 'boolean', default: false },
        port: { type: 'string', default: '3000' },
        host: { type: 'string', default: process.env['MCP_HOST'] ?? '127.0.0.1' },
        redis: { type: 'string' },
        // This example serves unprotected unless asked: `--auth <issuer>` (e.g. http://127.0.0.1:9400).
        auth: { type: 'string' },
        resource: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    // Node's message, first sentence: "Unknown option '--x'", "Option '--port <value>' argument missing".
    log(
      `${(error instanceof Error ? error.message : String(error)).split('. ')[0]} (--help lists the flags)`,
    );
    process.exit(2);
  }
}
const values = readFlags();
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}

// What one client may make the server do. These are the defaults (generated/runtime/README.md).
const limits = {
  maxMessageBytes: 4 * 1024 * 1024, // largest message: a stdio line or an HTTP body
  maxDepth: 64, // deepest nesting of arrays and objects in a message
  maxInFlight: 64, // handlers running at once per stdio connection or HTTP session
  handlerTimeoutMs: 5 * 60 * 1000, // a slower handler is cancelled and its request answered with an error
};
// Processes that share clients must sign 2026-07-28 request states with the same secret.
const stateSecret = process.env['MCP_STATE_SECRET'];
const server = createServer(
  handlers,
  stateSecret === undefined ? { logger: log, limits } : { logger: log, limits, stateSecret },
);

if (values.http) {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    log(`--port must be a number from 0 to 65535 (0: any free port), not ${values.port}`);
    process.exit(2);
  }
  // With Redis, sessions, resumable streams and tasks are shared by every process using it.
  // Redis unreachable at start: one line naming the URL, and exit 3.
  const redisUrl = values.redis ?? process.env['MCP_REDIS_URL'];
  const stores =
    redisUrl === undefined
      ? undefined
      : await (
          await import('./generated/runtime/redis-store.js')
        )
          .connectRedisStores(redisUrl, {
            log,
            // A task whose process stopped (killed) is marked failed once this passes without a heartbeat.
            taskLeaseMs: Number(process.env['MCP_TASK_LEASE_MS'] ?? 15_000),
          })
          .catch((error: Error) => {
            log(error.message);
            process.exit(3);
          });
  const issuer = values.auth;
  const auth =
    issuer === undefined
      ? undefined
      : (await import('./generated/runtime/auth/index.js')).createResourceServerAuth(
          {
            ...authSettings,
            authorizationServers: [issuer],
            verifier: { jwt: { issuer, algorithms: ['RS256'] } },
          },
          { log, resource: values.resource ?? `http://${values.host}:${port}/mcp` },
        );
  const listening = await server.listenHttp({
    port,
    // Loopback only by default. Binding elsewhere? Read "Security" in mcp-gen's README first.
    host: values.host,
    path: '/mcp',
    maxSessions: 1000, // open sessions at most; more initialize requests get 503
    sessionIdleTimeoutMs: 30 * 60 * 1000, // a session without requests for this long ends
    maxHeaderBytes: 16 * 1024, // request line and headers; more gets 431
    headersTimeoutMs: 10_000, // headers must arrive within this (slowloris); else 408
    requestTimeoutMs: 30_000, // the whole request must arrive within this; else 408
    keepAliveTimeoutMs: 5_000, // an idle keep-alive connection is closed after this
    maxUnsentBytes: 8 * 1024 * 1024, // a client this far behind on an SSE stream is cut off
    ...stores,
    ...(auth === undefined ? {} : { auth }),
  });
  log(`listening on ${listening.url}`);
  // SIGTERM (a deploy, a scale-in): take no new requests, give those in flight and the tasks
  // running here up to MCP_DRAIN_MS (default 30 s), fail what is left, and exit 0.
  process.once('SIGTERM', () => {
    log('SIGTERM: draining');
    void listening
      .drain(Number(process.env['MCP_DRAIN_MS'] ?? 30_000))
      .then(() => stores?.close())
      .finally(() => process.exit(0));
  });
} else {
  await server.serveStdio();
}
