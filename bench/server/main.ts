/**
 * Starts the MCP server "bench-mcp-gen".
 *
 * Serves stdio by default; with `--http` it serves Streamable HTTP at
 * `http://<host>:<port>/mcp` (`--port`, default 3000; `--host`, default 127.0.0.1).
 */
import { parseArgs } from 'node:util';
import { authSettings, createServer } from './generated/server.js';
import { handlers } from './handlers/index.js';

const { values } = parseArgs({
  options: {
    http: { type: 'boolean', default: false },
    port: { type: 'string', default: '3000' },
    host: { type: 'string', default: '127.0.0.1' },
    // Protected only when asked (bench/http.mjs, "auth on"): the issuer, its JWKS and the audience.
    'auth-issuer': { type: 'string' },
    'auth-jwks': { type: 'string' },
    resource: { type: 'string' },
  },
});

// Stdout belongs to the protocol when serving stdio: everything else goes to stderr.
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

// What one client may make the server do. These are the defaults (generated/runtime/README.md).
const limits = {
  maxMessageBytes: 4 * 1024 * 1024, // largest message: a stdio line or an HTTP body
  maxDepth: 64, // deepest nesting of arrays and objects in a message
  maxInFlight: 64, // handlers running at once per stdio connection or HTTP session
  handlerTimeoutMs: 5 * 60 * 1000, // a slower handler is cancelled and its request answered with an error
};
const server = createServer(handlers, { logger: log, limits });

if (values.http) {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    log(`--port must be a number from 0 to 65535 (0: any free port), not ${values.port}`);
    process.exit(2);
  }
  const issuer = values['auth-issuer'];
  const auth =
    issuer === undefined
      ? undefined
      : (await import('./generated/runtime/auth/index.js')).createResourceServerAuth(
          {
            ...authSettings,
            authorizationServers: [issuer],
            verifier: {
              jwt: { issuer, algorithms: ['RS256'], ...(values['auth-jwks'] === undefined ? {} : { jwksUri: values['auth-jwks'] }) },
            },
          },
          { log, ...(values.resource === undefined ? {} : { resource: values.resource }) },
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
    ...(auth === undefined ? {} : { auth }),
  });
  log(`listening on ${listening.url}`);
} else {
  await server.serveStdio();
}
