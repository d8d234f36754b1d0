import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { userCacheDir } from './cache-dir.js';
import type { Diagnostic } from './diagnostics.js';
import { inputProblem, unplacedDiagnostic } from './diagnostics.js';
import { downloadText, OFFLINE_HINT, readIfPresent, storeInCache } from './spec-fetch.js';
import { parseJsonDocument } from './spec-json.js';
import { normalizeSpecDocument, type SpecDialect } from './spec-normalize.js';
import { statedProtocolVersion } from './spec-version.js';
import { sha256Hex } from '../schema/sha256.js';
import type { JsonSchema } from '../schema/walk.js';

export type { SpecDialect } from './spec-normalize.js';
export type { JsonSchema } from '../schema/walk.js';
export type { SchemaObject } from '../schema/keywords.js';

import { BUNDLED_SPEC_DIR, KNOWN_REVISIONS, type KnownRevision } from './revisions.js';

export { BUNDLED_SPEC_DIR, KNOWN_REVISIONS, type KnownRevision };

/** The stateless revision: no `initialize`, its own validators, any JSON Schema as `outputSchema`. */
export const STATELESS_REVISION = '2026-07-28' satisfies KnownRevision;


const SPEC_RAW_BASE_URL = 'https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/main/schema';

/** A protocol schema, loaded and normalized: the only shape later phases ever see. */
export interface LoadedSpec {
  /**
   * `2025-06-18`, `draft`, …: the protocol version the schema states, else the name or folder it
   * was found by; `LATEST_PROTOCOL_VERSION`, and used in doc links.
   */
  revision: string;
  dialect: SpecDialect;
  /** Where the text came from, as diagnostics show it: a path or a URL. */
  source: string;
  /** Definition name → schema, in document order. Refs read `#/$defs/<Name>…` in every dialect. */
  defs: Record<string, JsonSchema>;
  /** Things ignored on the way (codegen keywords, a stale cache); the CLI prints them. */
  warnings: Diagnostic[];
}

export interface ResolveSpecOptions {
  /** A folder laid out as `<dir>/<revision>/schema.json` (CLI `--spec-dir`); else `MCP_SPEC_DIR`. Searched before the shipped copies. */
  specDir?: string;
  /**
   * The package's own copies, used when no spec dir is configured, so revision names work offline;
   * `false` skips them (the draft is a snapshot: give its URL for the newest).
   */
  bundledDir?: string | false;
  /** mcp-gen's cache root; else `MCP_GEN_CACHE_DIR`, else `$XDG_CACHE_HOME/mcp-gen` or `~/.cache/mcp-gen`. */
  cacheDir?: string;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** The revision a file or URL holds, when neither the schema nor its path says (`…/2025-06-18/schema.json` does). */
  revision?: string;
  /** The last resort when nothing names the revision, for callers that only compare schemas (diff); else it is an error. */
  fallbackRevision?: string;
}

/** SHA-256 of the definitions as loaded: what ledgers record, whatever the schema was named by. */
export function specDigest(spec: Pick<LoadedSpec, 'defs'>): string {
  return sha256Hex(JSON.stringify(spec.defs));
}

export function isKnownRevision(name: string): name is KnownRevision {
  return (KNOWN_REVISIONS as readonly string[]).includes(name);
}

/** A name that can only mean a revision: one mcp-gen ships, or any date (`2026-12-01`, found in a spec dir). */
export function isRevisionName(name: string): boolean {
  return isKnownRevision(name) || /^\d{4}-\d{2}-\d{2}$/.test(name);
}

export function specUrl(revision: KnownRevision): string {
  return `${SPEC_RAW_BASE_URL}/${revision}/schema.json`;
}

/**
 * Loads a protocol schema named by revision (`2025-06-18`), file path, folder (holding
 * `schema.json`) or http(s) URL. A revision name is looked up in the spec dir, then among the
 * copies shipped in the package, then in the user cache, then in the official repository (then
 * cached): a spec dir adds revisions, it does not hide the shipped ones. The revision the result
 * carries is the one the schema states (spec-version.ts); the name or path is the fallback.
 * Every failure is an InputError naming the input; a download that fails is an UnreachableError.
 */
export async function resolveSpec(input: string, opts: ResolveSpecOptions = {}): Promise<LoadedSpec> {
  const fetchImpl = opts.fetch ?? globalThis.fetch;
  if (/^https?:\/\//i.test(input)) {
    return fromText(await downloadText(input, fetchImpl), input, labelFor(input, opts), opts);
  }
  const specDir = opts.specDir ?? nonEmpty(process.env['MCP_SPEC_DIR']);
  if (!looksLikePath(input)) {
    const inSpecDir = specDir === undefined ? undefined : join(specDir, input, 'schema.json');
    const text = inSpecDir === undefined ? undefined : await readIfPresent(inSpecDir);
    if (text !== undefined) return fromText(text, inSpecDir!, opts.revision ?? input, opts);
    if (isKnownRevision(input)) return loadRevision(input, opts, fetchImpl);
  }
  const file = await schemaFileOf(input);
  const text = file === undefined ? undefined : await readIfPresent(file);
  if (text === undefined) {
    if (file !== undefined && file !== input) throw inputProblem(input, 'a folder without schema.json', 'give the schema file itself, or the folder that holds its schema.json');
    if (looksLikePath(input)) throw inputProblem(input, 'no such file');
    const where = specDir === undefined ? '' : ` or ${join(specDir, '<revision>', 'schema.json')}`;
    throw inputProblem(input, `unknown revision ${JSON.stringify(input)}`, `known revisions: ${KNOWN_REVISIONS.join(', ')}${where}; or give a schema file, a folder holding schema.json, or an http(s) URL`);
  }
  return fromText(text, file!, labelFor(input, opts), opts);
}

/** The schema file a path means: itself, or `schema.json` inside a folder; undefined when neither exists. */
async function schemaFileOf(path: string): Promise<string | undefined> {
  try {
    return (await stat(path)).isDirectory() ? join(path, 'schema.json') : path;
  } catch {
    return undefined;
  }
}

async function loadRevision(revision: KnownRevision, opts: ResolveSpecOptions, fetchImpl: typeof fetch): Promise<LoadedSpec> {
  const bundledDir = opts.bundledDir ?? BUNDLED_SPEC_DIR;
  if (bundledDir !== false) {
    const path = join(bundledDir, revision, 'schema.json');
    const text = await readIfPresent(path);
    if (text !== undefined) return fromText(text, path, revision, opts);
  }

  const cachePath = join(cacheRoot(opts), 'spec', revision, 'schema.json');
  const cached = await readIfPresent(cachePath);
  // Dated revisions never change once published; the draft does, so it is refreshed when possible.
  if (cached !== undefined && revision !== 'draft') return fromText(cached, cachePath, revision, opts);

  const url = specUrl(revision);
  let text: string;
  try {
    text = await downloadText(url, fetchImpl);
  } catch (error) {
    if (cached === undefined) throw error;
    const stale = unplacedDiagnostic(url, '', 'could not refresh the draft schema; using the cached copy', OFFLINE_HINT);
    return fromText(cached, cachePath, revision, opts, [stale]);
  }
  // Parse before caching: a captive portal's HTML must not poison the cache.
  const loaded = fromText(text, url, revision, opts);
  const cacheFailure = await storeInCache(cachePath, text);
  if (cacheFailure) loaded.warnings.push(...cacheFailure.diagnostics);
  return loaded;
}

/** Far above any published schema's size; anything this large is not a protocol schema. */
const MAX_SPEC_CHARS = 16 * 1024 * 1024;

/**
 * Parses and normalizes a schema. Its revision is the version it states; else `label` (a name,
 * a path segment, `--revision`); a schema with neither cannot be used.
 */
function fromText(text: string, source: string, label: string | undefined, opts: ResolveSpecOptions, warnings: Diagnostic[] = []): LoadedSpec {
  if (text.length > MAX_SPEC_CHARS) throw inputProblem(source, `too large for a protocol schema (${text.length} characters, at most ${MAX_SPEC_CHARS})`);
  const document = parseJsonDocument(text, source);
  const normalized = normalizeSpecDocument(document, source);
  const stated = statedProtocolVersion(document, normalized.defs);
  const revision = stated ?? label;
  if (revision === undefined) {
    throw inputProblem(source, 'cannot tell which protocol revision this schema is', 'it states no protocol version: keep it in a folder named after its revision (…/2025-06-18/schema.json), or name it with `mcp-gen types --revision`');
  }
  const notes = [...warnings, ...normalized.warnings];
  if (stated !== undefined && opts.revision !== undefined && opts.revision !== stated) {
    notes.push(unplacedDiagnostic(source, '', `the schema states protocol version ${stated}; the revision given (${opts.revision}) is not used`));
  }
  return { revision, dialect: normalized.dialect, source, defs: normalized.defs, warnings: notes };
}

/** The label of a file or URL: the explicit option, else a revision-like segment of its path. */
function labelFor(input: string, opts: ResolveSpecOptions): string | undefined {
  if (opts.revision !== undefined) return opts.revision;
  return input.split(/[/\\]/).reverse().find(isRevisionName) ?? opts.fallbackRevision;
}

/**
 * How a `--spec` value named the schema it loaded, as a ledger records it: by URL, by name (a
 * revision, shipped or in the spec dir, found again the same way), or by path (hashed as a file).
 */
export function specNamedBy(input: string, spec: Pick<LoadedSpec, 'source'>): 'url' | 'name' | 'path' {
  if (/^https?:\/\//i.test(input)) return 'url';
  const ownFile = spec.source === input || spec.source === join(input, 'schema.json');
  return !looksLikePath(input) && !ownFile ? 'name' : 'path';
}

function cacheRoot(opts: ResolveSpecOptions): string {
  return opts.cacheDir ?? userCacheDir();
}

function looksLikePath(input: string): boolean {
  return /[/\\]/.test(input) || /\.json$/i.test(input) || input.startsWith('.');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
