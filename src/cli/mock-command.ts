/**
 * `mcp-gen mock <manifest|snapshot> | --from-url <url>`: serves the mock (src/mock) on stdio, or on
 * Streamable HTTP with `--http`, until the input ends (stdio) or SIGINT/SIGTERM (HTTP).
 */
import { inputProblem } from '../load/diagnostics.js';
import { listenMock, manifestScopes, type MockAuthState } from '../mock/dev-auth.js';
import { createMockServer } from '../mock/index.js';
import { loadMockModel } from '../pipeline/mock.js';
import type { ServiceModel } from '../model/service-model.js';
import type { HttpListener } from '../runtime/index.js';
import { EXIT_OK, type Console } from './output.js';

export interface MockCommandOptions {
  fromUrl?: string;
  header?: string[];
  http?: boolean;
  port?: string;
  host?: string;
  seed?: string;
  fixtures?: string;
  allowOutsideRefs?: boolean;
  /** Print a ready line `{ command, url, seed, auth? }` on stdout (HTTP only: stdout is the protocol on stdio). */
  json?: boolean;
  /** HTTP, a manifest with `auth`: require the development token printed at start-up. */
  enforceAuth?: boolean;
  /** Serve the MCP Apps preview page too (implies --http), on `previewPort` (default: the mock's port + 1). */
  preview?: boolean;
  previewPort?: string;
}

/** A port option's value: 0 to 65535 (0: any free port). */
function portOf(flag: string, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw inputProblem(flag, `must be a number from 0 to 65535 (0: any free port), not ${value}`);
  return port;
}

export async function runMock(source: string | undefined, options: MockCommandOptions, io: Console): Promise<number> {
  if (options.previewPort !== undefined && !options.preview) throw inputProblem('--preview-port', 'needs --preview');
  const http = options.http === true || options.preview === true;
  if (options.enforceAuth && !http) throw inputProblem('--enforce-auth', 'needs --http: MCP authorization is an HTTP matter (stdio is served without tokens, by the generated server too)');
  const model = await loadMockModel(source, options, io);
  if (options.enforceAuth && model.auth === undefined) throw inputProblem('--enforce-auth', 'the server has no `auth` section to enforce');
  const seed = options.seed ?? '0';
  const server = await createMockServer({
    model,
    seed,
    ...(options.fixtures !== undefined ? { fixtures: options.fixtures } : {}),
    // Stdout belongs to the protocol on stdio: diagnostics go to stderr.
    serverOptions: { logger: (line) => io.err(line) },
  });
  if (!http) {
    if (model.auth !== undefined) io.err('note: the manifest has an `auth` section; MCP authorization applies to HTTP only, so this stdio mock (like the generated server on stdio) serves without tokens');
    await server.serveStdio();
    return EXIT_OK;
  }
  const port = portOf('--port', options.port ?? '3000');
  const host = options.host ?? '127.0.0.1';
  const previewPort = options.preview ? portOf('--preview-port', options.previewPort ?? String(port === 0 || port === 65535 ? 0 : port + 1)) : undefined;
  const { listener, auth } = await listenMock(server, model, { port, host, enforceAuth: options.enforceAuth === true, log: (line) => io.err(line) });
  const preview = previewPort === undefined ? undefined : await servePreview(model, seed, listener, auth, host, previewPort);
  // A manifest asking for auth is never served unprotected in silence: stderr says so, and the
  // --json ready line carries it for scripts.
  if (auth?.enforced === false) {
    const scopes = manifestScopes(model);
    io.err(`warning: auth NOT enforced: the manifest's \`auth\` section asks for OAuth bearer tokens${scopes.length > 0 ? ` (scopes ${scopes.join(' ')})` : ''}, and this mock answers every request without one; pass --enforce-auth to require a development token`);
  }
  if (auth?.enforced === true) io.err(`auth enforced with a development token (scopes ${auth.scopes.join(' ') || 'none'}): Authorization: Bearer ${auth.token}`);
  // --json: one line a script can read the URL from once the mock is ready.
  if (options.json) io.out(JSON.stringify({ command: 'mock', url: listener.url, seed, ...(auth !== undefined ? { auth } : {}), ...(preview !== undefined ? { preview: preview.url } : {}) }));
  else io.err(`mock of ${model.server.name} (seed ${seed}) serving ${listener.url}${preview !== undefined ? `, MCP Apps preview at ${preview.url}` : ''}; Ctrl-C stops it`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await preview?.close();
  await listener.close();
  return EXIT_OK;
}

/**
 * `--preview`: the page beside the mock, which reaches it as a host would (over HTTP, with the
 * development token when auth is enforced). Loaded only then: a plain mock starts as it did.
 */
async function servePreview(model: ServiceModel, seed: string, listener: HttpListener, auth: MockAuthState | undefined, host: string, port: number) {
  const { startPreview } = await import('../mock/preview/preview-server.js');
  try {
    return await startPreview({ model, seed, mockUrl: listener.url, host, port, ...(auth?.enforced === true ? { headers: { authorization: `Bearer ${auth.token}` } } : {}) });
  } catch (error) {
    await listener.close();
    throw inputProblem('--preview-port', `cannot serve the preview: ${(error as Error).message}`);
  }
}
