/**
 * `mcp-gen mock --preview`: a small loopback web server beside the HTTP mock. Its page
 * (preview-page.ts) frames a view the way a host does; this side gives the page the views with
 * their sample inputs (`GET /api/views`) and forwards the host's MCP requests to the mock
 * (`POST /api/rpc`) through a real MCP client that declares the Apps extension, as a host would.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ServiceModel } from '../../model/service-model.js';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../../model/views.js';
import { openSession } from '../../runtime/client/connect-options.js';
import type { ClientSession } from '../../runtime/client/session.js';
import { compileToolValidators } from '../validators.js';
import { previewPage } from './preview-page.js';
import { previewViews } from './preview-data.js';

/** The requests a host makes for its views; anything else is refused (-32601). */
const FORWARDED = new Set(['tools/call', 'tools/list', 'resources/read', 'resources/list', 'resources/templates/list']);
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface PreviewOptions {
  model: ServiceModel;
  seed: string | number;
  /** The mock's MCP endpoint, and the headers to send it (the development token under --enforce-auth). */
  mockUrl: string;
  headers?: Record<string, string>;
  host: string;
  port: number;
}

export interface PreviewListener {
  url: string;
  close(): Promise<void>;
}

export async function startPreview(options: PreviewOptions): Promise<PreviewListener> {
  let session: Promise<ClientSession> | undefined;
  const connect = (): Promise<ClientSession> => {
    session ??= openSession({
      url: options.mockUrl,
      ...(options.headers !== undefined ? { headers: options.headers } : {}),
      clientInfo: { name: 'mcp-gen-preview', version: '1.0.0' },
      extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } },
    });
    // A failed connection is not kept: the next request tries again.
    session.catch(() => (session = undefined));
    return session;
  };
  const views = JSON.stringify({ server: options.model.server.name, seed: String(options.seed), views: previewViews(options.model, compileToolValidators(options.model), options.seed) });
  const page = previewPage();
  let origins: string[] = [];
  const server = createServer((req, res) => {
    void route(req, res, { page, views, origins, connect }).catch((error: unknown) => reply(res, 500, { error: { code: -32603, message: (error as Error).message } }));
  });
  await new Promise<void>((done, fail) => server.once('error', fail).listen(options.port, options.host, done));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const origin = `${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  origins = [origin, `localhost:${port}`];
  return {
    url: `http://${origin}/`,
    close: async () => {
      const open = session;
      session = undefined;
      await open?.then((s) => s.close()).catch(() => {});
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

interface Routes {
  page: string;
  views: string;
  /** The `host:port`s this server answers as: another Host header is a DNS-rebinding attempt. */
  origins: string[];
  connect: () => Promise<ClientSession>;
}

async function route(req: IncomingMessage, res: ServerResponse, routes: Routes): Promise<void> {
  if (!routes.origins.includes(req.headers.host ?? '')) return reply(res, 421, { error: { code: -32600, message: `this preview answers as ${routes.origins.join(' or ')} only` } });
  const path = new URL(req.url ?? '/', 'http://preview').pathname;
  if (req.method === 'GET' && path === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(routes.page);
    return;
  }
  if (req.method === 'GET' && path === '/api/views') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(routes.views);
    return;
  }
  if (path !== '/api/rpc') return reply(res, 404, { error: { code: -32601, message: `no page at ${path}` } });
  if (req.method !== 'POST') return reply(res, 405, { error: { code: -32600, message: 'POST a JSON body { method, params }' } });
  // JSON only: a cross-site form cannot send it without a preflight this server never grants.
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return reply(res, 415, { error: { code: -32600, message: 'the body must be application/json' } });
  const body = await readBody(req);
  if (body === undefined) return reply(res, 413, { error: { code: -32600, message: `the body is over ${MAX_BODY_BYTES} bytes` } });
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return reply(res, 400, { error: { code: -32700, message: 'the body is not JSON' } });
  }
  const { method, params } = (typeof message === 'object' && message !== null ? message : {}) as { method?: unknown; params?: unknown };
  if (typeof method !== 'string' || (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))) {
    return reply(res, 400, { error: { code: -32600, message: 'the body must be { "method": string, "params"?: object }' } });
  }
  if (!FORWARDED.has(method)) return reply(res, 200, { error: { code: -32601, message: `the preview does not forward ${method} (it forwards ${[...FORWARDED].join(', ')})` } });
  try {
    const session = await routes.connect();
    reply(res, 200, { result: await session.request(method, (params ?? {}) as Record<string, unknown>) });
  } catch (error) {
    const { code, message: text, data } = error as { code?: unknown; message: string; data?: unknown };
    reply(res, 200, { error: { code: typeof code === 'number' ? code : -32603, message: text, ...(data !== undefined ? { data } : {}) } });
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The whole body as text, or undefined past the limit. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
