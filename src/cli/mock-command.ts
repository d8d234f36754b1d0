/**
 * `mcp-gen mock <manifest|snapshot> | --from-url <url>`: serves the mock (src/mock) on stdio, or on
 * Streamable HTTP with `--http`, until the input ends (stdio) or SIGINT/SIGTERM (HTTP).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { inputProblem } from '../load/diagnostics.js';
import { introspect, readSnapshot, SNAPSHOT_FORMAT } from '../load/introspect.js';
import { loadManifest } from '../pipeline/manifest.js';
import { createMockServer } from '../mock/index.js';
import { listenMock, manifestScopes } from '../mock/dev-auth.js';
import { serviceFromSnapshot } from '../model/service-from-snapshot.js';
import type { ServiceModel } from '../model/service-model.js';
import { MANIFEST_PROTOCOL_VERSIONS } from '../model/service.js';
import { flagPairs } from './flag-pairs.js';
import { EXIT_OK, printWarnings, withProgress, type Console } from './output.js';
import { displayPath } from './paths.js';

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
}

/** A snapshot file is JSON whose `mcpGenSnapshot` says so; anything else is read as a manifest. */
async function isSnapshot(file: string): Promise<boolean> {
  if (!file.toLowerCase().endsWith('.json')) return false;
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as { mcpGenSnapshot?: unknown };
    return value.mcpGenSnapshot === SNAPSHOT_FORMAT;
  } catch {
    return false;
  }
}

async function loadModel(source: string | undefined, options: MockCommandOptions, io: Console): Promise<ServiceModel> {
  if ((source === undefined) === (options.fromUrl === undefined)) {
    throw inputProblem('mcp-gen mock', 'give exactly one of: a manifest, a snapshot file, --from-url');
  }
  if (source !== undefined && !(await isSnapshot(source))) {
    const { model, warnings } = await loadManifest(source, { allowOutside: options.allowOutsideRefs === true });
    printWarnings(io, warnings);
    return model;
  }
  let snapshot;
  let place: string;
  if (source !== undefined) {
    snapshot = await readSnapshot(source);
    place = displayPath(resolve(source));
  } else {
    const headers = flagPairs(options.header, ':', '--header');
    snapshot = await withProgress(io, `reading ${options.fromUrl}…`, () => introspect({ url: options.fromUrl as string, ...(headers ? { headers } : {}) }, (line) => io.err(line)));
    place = options.fromUrl as string;
  }
  const built = serviceFromSnapshot(snapshot, `mcp-gen mock ${place}`, place);
  printWarnings(io, built.warnings);
  // A snapshot records the one revision introspection negotiated; the mock serves both eras anyway,
  // as a server generated from the same tools would.
  return { ...built.model, protocolVersions: [...MANIFEST_PROTOCOL_VERSIONS] };
}

export async function runMock(source: string | undefined, options: MockCommandOptions, io: Console): Promise<number> {
  if (options.enforceAuth && !options.http) throw inputProblem('--enforce-auth', 'needs --http: MCP authorization is an HTTP matter (stdio is served without tokens, by the generated server too)');
  const model = await loadModel(source, options, io);
  if (options.enforceAuth && model.auth === undefined) throw inputProblem('--enforce-auth', 'the server has no `auth` section to enforce');
  const seed = options.seed ?? '0';
  const server = await createMockServer({
    model,
    seed,
    ...(options.fixtures !== undefined ? { fixtures: options.fixtures } : {}),
    // Stdout belongs to the protocol on stdio: diagnostics go to stderr.
    serverOptions: { logger: (line) => io.err(line) },
  });
  if (!options.http) {
    if (model.auth !== undefined) io.err('note: the manifest has an `auth` section; MCP authorization applies to HTTP only, so this stdio mock (like the generated server on stdio) serves without tokens');
    await server.serveStdio();
    return EXIT_OK;
  }
  const port = Number(options.port ?? '3000');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw inputProblem('--port', `must be a number from 0 to 65535 (0: any free port), not ${options.port}`);
  const { listener, auth } = await listenMock(server, model, { port, host: options.host ?? '127.0.0.1', enforceAuth: options.enforceAuth === true, log: (line) => io.err(line) });
  // A manifest asking for auth is never served unprotected in silence: stderr says so, and the
  // --json ready line carries it for scripts.
  if (auth?.enforced === false) {
    const scopes = manifestScopes(model);
    io.err(`warning: auth NOT enforced: the manifest's \`auth\` section asks for OAuth bearer tokens${scopes.length > 0 ? ` (scopes ${scopes.join(' ')})` : ''}, and this mock answers every request without one; pass --enforce-auth to require a development token`);
  }
  if (auth?.enforced === true) io.err(`auth enforced with a development token (scopes ${auth.scopes.join(' ') || 'none'}): Authorization: Bearer ${auth.token}`);
  // --json: one line a script can read the URL from once the mock is ready.
  if (options.json) io.out(JSON.stringify({ command: 'mock', url: listener.url, seed, ...(auth !== undefined ? { auth } : {}) }));
  else io.err(`mock of ${model.server.name} (seed ${seed}) serving ${listener.url}; Ctrl-C stops it`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await listener.close();
  return EXIT_OK;
}
