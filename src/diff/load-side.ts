/**
 * One side of `mcp-gen diff`, from its command-line form to something comparable. The form says
 * the kind: `cmd:<command line>` (a stdio server), `http(s)://…` (a live server; one ending in
 * `.json` is a protocol schema), a revision name (`2025-11-25`, `draft`, a date or name found in
 * --spec-dir), a folder holding `schema.json` (a revision), or a file: `.yaml`/`.yml` is a
 * manifest, a JSON file with `mcpGenSnapshot` is a snapshot, one whose definitions include the
 * JSON-RPC envelopes a protocol schema, any other JSON file a manifest. Everything is read with
 * the loaders the generators use.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { formatDiagnostic, inputProblem, InputError, unplacedDiagnostic } from '../load/diagnostics.js';
import { introspect, readSnapshot, splitCommand, type ServerSnapshot } from '../load/introspect.js';
import { loadManifest } from '../pipeline/manifest.js';
import { isRevisionName, KNOWN_REVISIONS, resolveSpec } from '../load/spec.js';
import { buildProtocolModel, type ProtocolModel } from '../model/protocol.js';
import { serviceFromSnapshot } from '../model/service-from-snapshot.js';
import type { ServerLocation } from '../runtime/client/index.js';
import type { SideInfo, SideKind } from './finding.js';
import { childPointer, isObject } from './json-values.js';
import { surfaceFromModel, type ServerSurface } from './server-surface.js';

export type SideFamily = 'server' | 'revision';

export type LoadedSide = { info: SideInfo } & ({ family: 'server'; surface: ServerSurface } | { family: 'revision'; protocol: ProtocolModel });

export interface SideOptions {
  /** HTTP headers for `http(s)://` sides. */
  headers?: Record<string, string>;
  /** Environment variables for `cmd:` sides. */
  env?: Record<string, string>;
  /** Where revision schemas are read (as for `mcp-gen types --spec-dir`). */
  specDir?: string;
  allowOutsideRefs?: boolean;
}

/** A live side (URL or command) that could not be introspected: the network's or the server's fault, not the input's. */
export class LiveSideError extends Error {
  constructor(
    readonly side: string,
    readonly reason: string,
  ) {
    super(`${side}: ${reason}`);
    this.name = 'LiveSideError';
  }
}

export const COMMAND_PREFIX = 'cmd:';

const SIDE_FORMS = `a side is a manifest (.yaml, .yml, .json), an OpenAPI description, a snapshot saved with --save-snapshot, an http(s):// URL, '${COMMAND_PREFIX}<command line>', or a protocol schema: a revision (${KNOWN_REVISIONS.join(', ')}, or one in --spec-dir), a schema.json file or its folder, or an http(s) URL ending in .json`;

/** Files larger than this are neither snapshots nor protocol schemas (the spec loader's own limit). */
const MAX_SPEC_BYTES = 16 * 1024 * 1024;

export function familyOf(kind: SideKind): SideFamily {
  return kind === 'revision' ? 'revision' : 'server';
}

/** What kind of side `arg` is; files are opened to tell a snapshot or a protocol schema from a JSON manifest. */
export async function classifySide(arg: string, specDir?: string): Promise<SideInfo> {
  if (arg.startsWith(COMMAND_PREFIX)) {
    if (arg.slice(COMMAND_PREFIX.length).trim() === '') throw inputProblem(arg, 'empty command', `write ${COMMAND_PREFIX}'node server.js --stdio'`);
    return { kind: 'command', source: arg };
  }
  if (/^https?:\/\//i.test(arg)) {
    if (!URL.canParse(arg)) throw inputProblem(arg, 'not a valid URL');
    // A server's endpoint never ends in .json; a published schema does.
    return { kind: /\.json$/i.test(new URL(arg).pathname) ? 'revision' : 'url', source: arg };
  }
  if (isRevisionName(arg) || inSpecDir(arg, specDir ?? process.env['MCP_SPEC_DIR'])) return { kind: 'revision', source: arg };
  if (!existsSync(arg)) throw inputProblem(arg, 'no such file', SIDE_FORMS);
  if (statSync(arg).isDirectory()) {
    if (existsSync(join(arg, 'schema.json'))) return { kind: 'revision', source: arg };
    throw inputProblem(arg, 'a folder without schema.json', SIDE_FORMS);
  }
  const extension = extname(arg).toLowerCase();
  if (await looksLikeOpenApi(arg)) return { kind: 'openapi', source: arg };
  if (extension === '.yaml' || extension === '.yml') return { kind: 'manifest', source: arg };
  const json = await readJsonObject(arg);
  if (json !== undefined && Object.hasOwn(json, 'mcpGenSnapshot')) return { kind: 'snapshot', source: arg };
  return { kind: json !== undefined && looksLikeProtocolSchema(json) ? 'revision' : 'manifest', source: arg };
}

/** A bare name (`pr-2111`) that names a folder of the spec dir. */
function inSpecDir(arg: string, specDir: string | undefined): boolean {
  return specDir !== undefined && specDir !== '' && !/[/\\]/.test(arg) && existsSync(join(specDir, arg, 'schema.json'));
}

/** A protocol schema defines the JSON-RPC envelopes; a manifest or snapshot never does. */
function looksLikeProtocolSchema(json: Record<string, unknown>): boolean {
  const defs = json['$defs'] ?? json['definitions'];
  return isObject(defs) && ['JSONRPCRequest', 'JSONRPCMessage'].some((name) => Object.hasOwn(defs, name));
}

async function looksLikeOpenApi(path: string): Promise<boolean> {
  const { looksLikeOpenApiFile } = await import('../pipeline/import.js');
  return looksLikeOpenApiFile(path);
}

/** The file's JSON object, or undefined when it is not one (the manifest loader then says what is wrong). */
async function readJsonObject(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    if ((await stat(path)).size > MAX_SPEC_BYTES) return undefined;
    const value: unknown = JSON.parse(await readFile(path, 'utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Loads a classified side. `warn` hears what was left out of a snapshot or a live server. */
export async function loadSide(info: SideInfo, options: SideOptions, warn: (line: string) => void): Promise<LoadedSide> {
  switch (info.kind) {
    case 'revision': {
      // A schema that names no revision anywhere is compared all the same: here the name only labels doc links.
      const spec = await resolveSpec(info.source, { fallbackRevision: 'draft', ...(options.specDir !== undefined ? { specDir: options.specDir } : {}) });
      return { info, family: 'revision', protocol: buildProtocolModel(spec) };
    }
    case 'manifest': {
      const { model } = await loadManifest(info.source, { allowOutside: options.allowOutsideRefs === true });
      return { info, family: 'server', surface: surfaceFromModel(model, [], { bindings: true }).surface };
    }
    case 'snapshot':
      return fromSnapshot(info, await readSnapshot(info.source), warn);
    case 'openapi': {
      // An OpenAPI description is compared as the manifest `mcp-gen import openapi` makes of it.
      const { openApiModel } = await import('../pipeline/import.js');
      return { info, family: 'server', surface: surfaceFromModel(await openApiModel(info.source), [], { bindings: true }).surface };
    }
    case 'url':
    case 'command':
      return fromSnapshot(info, await introspectSide(info, options), warn);
  }
}

/**
 * Deeper than this, a server's entries are refused: the comparison recurses along them (manifests
 * and revisions are bounded by their loaders already).
 */
export const MAX_SNAPSHOT_NESTING = 256;

function fromSnapshot(info: SideInfo, snapshot: ServerSnapshot, warn: (line: string) => void): LoadedSide {
  const tooDeep = deeperThan(snapshot, MAX_SNAPSHOT_NESTING);
  if (tooDeep !== undefined) throw new InputError([unplacedDiagnostic(info.source, tooDeep, `nested deeper than ${MAX_SNAPSHOT_NESTING} levels`)]);
  const built = serviceFromSnapshot(snapshot, info.source);
  const { surface, warnings } = surfaceFromModel(built.model, snapshot.tools);
  for (const diagnostic of built.warnings) warn(formatDiagnostic(diagnostic));
  for (const line of warnings) warn(`${info.source}: ${line}`);
  return { info, family: 'server', surface };
}

async function introspectSide(info: SideInfo, options: SideOptions): Promise<ServerSnapshot> {
  let location: ServerLocation;
  if (info.kind === 'url') {
    location = options.headers ? { url: info.source, headers: options.headers } : { url: info.source };
  } else {
    const [command, ...args] = splitCommand(info.source.slice(COMMAND_PREFIX.length));
    location = { command: command as string, args, stderr: 'ignore', ...(options.env ? { env: options.env } : {}) };
  }
  try {
    return await introspect(location, () => {});
  } catch (error) {
    // introspect names the location in its InputError; keep only the reason.
    const reason = error instanceof InputError ? (error.diagnostics[0]?.message ?? error.message) : error instanceof Error ? error.message : String(error);
    throw new LiveSideError(info.source, reason);
  }
}

/** The pointer of the first value nested deeper than `limit`, found without recursion; undefined if none. */
function deeperThan(root: unknown, limit: number): string | undefined {
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value: root, pointer: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, pointer, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return pointer;
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    for (const [key, child] of entries) stack.push({ value: child, pointer: childPointer(pointer, key), depth: depth + 1 });
  }
  return undefined;
}
