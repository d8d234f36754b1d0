/**
 * The MCP server "Weather" as a Web-standard handler, `fetch(Request) → Promise<Response>`,
 * for runtimes that serve one (both protocol eras at `/mcp`; docs/deploy.md has each platform):
 * - Bun: `bun main.web.ts`; Deno: `deno serve --allow-env --host 127.0.0.1 main.web.ts` (both serve the default export,
 *   on loopback: for Bun `MCP_HOST` names another host and `PORT` the port, for Deno `--host` and `--port`);
 * - Cloudflare Workers: `main = "main.web.ts"` and `compatibility_flags = ["nodejs_compat"]` in wrangler.toml;
 * - Next.js (App Router): `export { fetch as GET, fetch as POST, fetch as DELETE, fetch as OPTIONS } from '…/main.web';`
 *   in `app/mcp/route.ts`; Hono: `app.all('/mcp', (c) => fetch(c.req.raw))`.
 * Set `MCP_ALLOWED_HOSTS` to the host names it is reached by, and `MCP_STATE_SECRET` where several
 * processes or isolates serve it.
 * With `MCP_AUTH_ISSUER` set it is an OAuth 2.1 resource server trusting that issuer's JWT access
 * tokens (as main.ts with `--auth`); `MCP_AUTH_RESOURCE` names the endpoint's URL.
 */
import { handlers } from './handlers/index.js';
import { authSettings, createServer } from './generated/server.js';
import { createResourceServerAuth } from './generated/runtime/auth/index.js';

// The environment, where the platform has one (Workers: with the nodejs_compat flag).
const env =
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
const log = (line: string): void => console.error(line);

// What one client may make the server do. These are the defaults (generated/runtime/README.md).
const limits = {
  maxMessageBytes: 4 * 1024 * 1024, // largest message: an HTTP body
  maxDepth: 64, // deepest nesting of arrays and objects in a message
  maxInFlight: 64, // handlers running at once per HTTP session
  handlerTimeoutMs: 5 * 60 * 1000, // a slower handler is cancelled and its request answered with an error
};
// Every process or isolate serving this endpoint must sign 2026-07-28 request states with the same secret.
const stateSecret = env['MCP_STATE_SECRET'];
const server = createServer(
  handlers,
  stateSecret === undefined ? { logger: log, limits } : { logger: log, limits, stateSecret },
);

// The example's tokens are optional: without an issuer, no token is asked for.
const issuer = env['MCP_AUTH_ISSUER'];
const auth =
  issuer === undefined
    ? undefined
    : createResourceServerAuth(
        {
          ...authSettings,
          authorizationServers: [issuer],
          verifier: { jwt: { issuer, algorithms: ['RS256'] } },
        },
        { log, resource: env['MCP_AUTH_RESOURCE'] ?? 'http://127.0.0.1:3000/mcp' },
      );

/** Serves one request: hand it every request for the endpoint's path. */
export const fetch = server.fetchHandler({
  path: '/mcp',
  // The host names clients reach this endpoint by (against DNS rebinding), e.g. MCP_ALLOWED_HOSTS=mcp.example.com.
  // Default: the loopback names only. Binding elsewhere? Read "Security" in mcp-gen's README first.
  allowedHosts: env['MCP_ALLOWED_HOSTS']?.split(',') ?? ['localhost', '127.0.0.1', '[::1]'],
  // Web pages allowed to call it (CORS), e.g. ['https://app.example']. Default: loopback pages only.
  // allowedOrigins: [],
  maxSessions: 1000, // open sessions at most; more initialize requests get 503
  sessionIdleTimeoutMs: 30 * 60 * 1000, // a session without requests for this long ends
  // Sessions (the 2025 revisions) need a process that lives between requests: on by default,
  // off on Cloudflare Workers (a stateful request then gets a 400 saying why; 2026-07-28 works).
  // sessions: true,
  ...(auth === undefined ? {} : { auth }),
});

// Bun serves this default export itself (`bun main.web.ts`), on all interfaces unless `hostname`
// says otherwise: loopback unless MCP_HOST names another (port: PORT, default 3000). Other platforms ignore it.
export default { fetch, hostname: env['MCP_HOST'] ?? '127.0.0.1' };
