/**
 * `mcp-gen import openapi`: an OpenAPI description → a manifest (a plain object, written as YAML by
 * src/pipeline/import.ts). Reading and validating is openapi-source.ts, schemas schema-convert.ts,
 * operations operations.ts, servers and credentials upstream.ts, selection and names select.ts.
 */
import type { Diagnostic } from '../load/diagnostics.js';
import { readOpenApi, type OpenApiSource } from './openapi-source.js';
import { operationsOf, toolOf, type ImportedTool, type Omission } from './operations.js';
import { schemaConverter } from './schema-convert.js';
import { baseName, selectOperations, tagsOf, uniqueNames, type Selection } from './select.js';
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

/** Past this many tools a model chooses badly: the import says which tags to filter by. */
export const MANY_TOOLS = 100;

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
  const upstream = upstreamOf(document, options.baseUrl, source.isUrl ? source.name : undefined);
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

  for (const [key, what] of [['webhooks', 'webhook'], ['x-webhooks', 'webhook']] as const) {
    const hooks = document[key];
    if (hooks !== null && typeof hooks === 'object') for (const name of Object.keys(hooks)) at(`/${key}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, `${what} '${name}' is left out: a tool answers calls, it receives no webhooks`);
  }
  const { formats, patterns } = converter.dropped;
  if (formats.size > 0 || patterns > 0) {
    const parts = [formats.size > 0 ? `formats ${[...formats].sort().map((f) => `'${f}'`).join(', ')} (not JSON Schema's)` : '', patterns > 0 ? `${patterns} pattern${patterns > 1 ? 's' : ''} JavaScript's regular expressions cannot compile` : ''].filter(Boolean);
    at('', `left out of the tool schemas: ${parts.join('; ')}; values are checked a little less strictly`);
  }
  if (built.length > MANY_TOOLS) at('', manyToolsMessage(built.length, selected));
  const positions = source.locateAll(pending.map((p) => p.pointer));
  for (const { pointer, message, hint } of pending) warnings.push({ file: source.name, ...positions.get(pointer)!, pointer, message, ...(hint !== undefined ? { hint } : {}) });

  const tools = built.map(({ tool }, index) => ({ name: names[index]!, ...tool }));
  const manifest = manifestOf(document, source, options, upstream.upstream, tools, converter.defs());
  return {
    manifest,
    warnings,
    source,
    stats: { operations: all.length, selected: selected.length, tools: tools.length, skipped: selected.length - tools.length },
  };
}

function manyToolsMessage(count: number, selected: ReturnType<typeof selectOperations>): string {
  const counts = new Map<string, number>();
  for (const op of selected) for (const tag of tagsOf(op)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 12);
  const tags = top.map(([tag, n]) => `${tag} (${n})`).join(', ');
  return `${count} tools: models choose badly among more than ${MANY_TOOLS}; keep the ones you need with --tag${tags ? `, e.g. ${tags}` : ''}, --path or --operation`;
}

function manifestOf(document: Json, source: OpenApiSource, options: ImportOptions, upstream: Json, tools: Json[], defs: Record<string, unknown>): Json {
  const info = (document['info'] !== null && typeof document['info'] === 'object' ? document['info'] : {}) as Json;
  const title = typeof info['title'] === 'string' && info['title'].trim() !== '' ? info['title'].trim() : 'api';
  const name = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64) || 'api';
  const server: Json = { name, version: typeof info['version'] === 'string' && info['version'] !== '' ? info['version'] : '0.0.0', title };
  if (typeof info['description'] === 'string' && info['description'].trim() !== '') server['description'] = info['description'].trim();
  const withSource = { ...upstream, source: { openapi: options.sourceReference ?? source.name, sha256: source.sha256 } };
  return {
    server,
    upstream: withSource,
    tools,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}
