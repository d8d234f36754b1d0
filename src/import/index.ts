/**
 * `mcp-gen import openapi`: an OpenAPI description → a manifest (a plain object, written as YAML by
 * src/pipeline/import.ts). Reading and validating is openapi-source.ts, schemas schema-convert.ts,
 * operations operations.ts, servers and credentials upstream.ts, selection and names select.ts.
 */
import type { Diagnostic } from '../load/diagnostics.js';
import { MANY_TOOLS, manyToolsMessage } from './advice.js';
import { serverName } from './naming.js';
import { readOpenApi, type OpenApiSource } from './openapi-source.js';
import { operationsOf, toolOf, type ImportedTool, type Omission } from './operations.js';
import { schemaConverter } from './schema-convert.js';
import { baseName, selectOperations, uniqueNames, type Selection } from './select.js';
import { authOf, upstreamOf } from './upstream.js';

type Json = { [key: string]: unknown };

export interface ImportOptions extends Selection {
  /** `--base-url`: the upstream's base URL instead of the description's first server. */
  baseUrl?: string;
  /** How `upstream.source.openapi` names the description (a path relative to the manifest, or the URL). */
  sourceReference?: string;
  /** `--bearer-env`: a bearer token from this environment variable for every tool the description gives no credentials. */
  bearerEnv?: string;
  /** `--header`: fixed headers sent with every upstream request (`upstream.headers`). */
  headers?: Record<string, string>;
}

/** The scheme name `--bearer-env` adds (suffixed when the description already has one so named). */
const BEARER_SCHEME = 'bearer';

export interface ImportResult {
  manifest: Json;
  warnings: Diagnostic[];
  source: OpenApiSource;
  stats: { operations: number; selected: number; tools: number; skipped: number };
}


export async function importOpenApi(location: string, options: ImportOptions = {}): Promise<ImportResult> {
  const source = await readOpenApi(location);
  return importFromSource(source, options);
}

export async function importFromSource(source: OpenApiSource, options: ImportOptions): Promise<ImportResult> {
  const { document } = source;
  // Warnings are positioned together at the end: one pass over the text finds them all.
  const pending: { pointer: string; message: string; hint?: string }[] = [];
  const at = (pointer: string, message: string, hint?: string): void => void pending.push({ pointer, message, ...(hint !== undefined ? { hint } : {}) });
  const warnings: Diagnostic[] = [...source.problems];
  const { compilerKnowledge } = await import('../load/schema-compiler.js');
  const converter = schemaConverter(document, new Set(compilerKnowledge('2020-12').formats), !source.version.startsWith('3.1'));

  const all = operationsOf(document);
  const selected = selectOperations(all, options);
  const server = serverOf(document);
  const upstream = upstreamOf(document, server['name'] as string, options.baseUrl, source.isUrl ? source.name : undefined);
  for (const note of upstream.notes) at(note.pointer, note.message);

  let bearer: string | undefined;
  if (options.bearerEnv !== undefined) {
    bearer = BEARER_SCHEME;
    for (let n = 2; upstream.schemes.has(bearer); n += 1) bearer = `${BEARER_SCHEME}_${n}`;
    upstream.upstream['auth'] = { ...(upstream.upstream['auth'] as Json | undefined), [bearer]: { type: 'bearer', env: options.bearerEnv } };
  }
  if (options.headers !== undefined && Object.keys(options.headers).length > 0) upstream.upstream['headers'] = { ...options.headers };
  const omissions: Omission[] = [];
  const built: { tool: Omit<ImportedTool, 'name'>; wanted: string; pointer: string }[] = [];
  for (const op of selected) {
    const tool = toolOf(document, op, converter, omissions);
    if (tool === undefined) continue;
    const auth = authOf(document, op.operation, upstream.schemes);
    if (auth !== undefined) tool.http.auth = auth;
    else if (bearer !== undefined) tool.http.auth = [bearer];
    built.push({ tool, wanted: baseName(op), pointer: op.pointer });
  }
  for (const omission of omissions) at(omission.pointer, omission.message);
  const { names, renamed } = uniqueNames(built.map((b) => b.wanted));
  for (const { index, wanted, given } of renamed) at(built[index]!.pointer, `tool name '${wanted}' is taken: this operation's tool is '${given}'`, 'rename it in the manifest if you like');

  for (const key of ['webhooks', 'x-webhooks']) {
    const hooks = document[key];
    const names = hooks !== null && typeof hooks === 'object' ? Object.keys(hooks) : [];
    if (names.length > 0) at(`/${key}`, webhooksMessage(names));
  }
  const { formats, patterns } = converter.dropped;
  if (formats.size > 0 || patterns > 0) {
    const parts = [formats.size > 0 ? `formats ${[...formats].sort().map((f) => `'${f}'`).join(', ')} (not JSON Schema's)` : '', patterns > 0 ? `${patterns} pattern${patterns > 1 ? 's' : ''} JavaScript's regular expressions cannot compile` : ''].filter(Boolean);
    at('', `left out of the tool schemas: ${parts.join('; ')}; values are checked a little less strictly`);
  }
  if (built.length > MANY_TOOLS) at('', manyToolsMessage(built.length, selected, options));
  const positions = source.locateAll(pending.map((p) => p.pointer));
  for (const { pointer, message, hint } of pending) warnings.push({ file: source.name, ...positions.get(pointer)!, pointer, message, ...(hint !== undefined ? { hint } : {}) });

  const tools = built.map(({ tool }, index) => ({ name: names[index]!, ...tool }));
  const manifest = manifestOf(server, source, options, upstream.upstream, tools, converter.defs());
  return {
    manifest,
    warnings,
    source,
    stats: { operations: all.length, selected: selected.length, tools: tools.length, skipped: selected.length - tools.length },
  };
}

/** One line for all of them: each is an event the API sends, not an operation a tool could call. */
function webhooksMessage(names: string[]): string {
  const shown = names.slice(0, 3).map((name) => `'${name}'`).join(', ');
  const more = names.length > 3 ? `, … (${names.length - 3} more)` : '';
  return `${names.length} webhook${names.length > 1 ? 's' : ''} skipped (webhooks are not operations: the API calls them, a tool cannot): ${shown}${more}`;
}

/** The manifest's `server`: a short name from the title (naming.ts), the title and version as given. */
function serverOf(document: Json): Json {
  const info = (document['info'] !== null && typeof document['info'] === 'object' ? document['info'] : {}) as Json;
  const title = typeof info['title'] === 'string' && info['title'].trim() !== '' ? info['title'].trim() : 'api';
  const server: Json = { name: serverName(title), version: typeof info['version'] === 'string' && info['version'] !== '' ? info['version'] : '0.0.0', title };
  if (typeof info['description'] === 'string' && info['description'].trim() !== '') server['description'] = info['description'].trim();
  return server;
}

function manifestOf(server: Json, source: OpenApiSource, options: ImportOptions, upstream: Json, tools: Json[], defs: Record<string, unknown>): Json {
  const withSource = { ...upstream, source: { openapi: options.sourceReference ?? source.name, sha256: source.sha256 } };
  return {
    server,
    upstream: withSource,
    tools,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}
