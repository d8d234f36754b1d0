import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userCacheDir } from './cache-dir.js';
import type { Diagnostic } from './diagnostics.js';
import { inputProblem, unplacedDiagnostic } from './diagnostics.js';
import { downloadText, OFFLINE_HINT, readIfPresent, storeInCache } from './spec-fetch.js';
import { parseJsonDocument } from './spec-json.js';
import { normalizeSpecDocument, type SpecDialect } from './spec-normalize.js';
import type { JsonSchema } from '../schema/walk.js';

export type { SpecDialect } from './spec-normalize.js';
export type { JsonSchema } from '../schema/walk.js';
export type { SchemaObject } from '../schema/keywords.js';

/** Every published MCP schema revision mcp-gen knows by name, oldest first. */
export const KNOWN_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'draft'] as const;
export type KnownRevision = (typeof KNOWN_REVISIONS)[number];

/** The stateless revision: no `initialize`, its own validators, any JSON Schema as `outputSchema`. */
export const STATELESS_REVISION = '2026-07-28' satisfies KnownRevision;

/** The official schemas shipped in the package (`schema/mcp-spec/`), two levels up from src/load and dist/load. */
export const BUNDLED_SPEC_DIR = fileURLToPath(new URL('../../schema/mcp-spec/', import.meta.url));

const SPEC_RAW_BASE_URL = 'https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/main/schema';

/** A protocol schema, loaded and normalized: the only shape later phases ever see. */
export interface LoadedSpec {
  /** `2025-06-18`, `draft`, …: the revision name, also used in doc links. */
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
  /** A folder laid out as `<dir>/<revision>/schema.json` (CLI `--spec-dir`); else `MCP_SPEC_DIR`. */
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
  /** The revision a file or URL holds, when its path does not say (`…/2025-06-18/schema.json` does). */
  revision?: string;
}

export function isKnownRevision(name: string): name is KnownRevision {
  return (KNOWN_REVISIONS as readonly string[]).includes(name);
}

export function specUrl(revision: KnownRevision): string {
  return `${SPEC_RAW_BASE_URL}/${revision}/schema.json`;
}

/**
 * Loads a protocol schema named by revision (`2025-06-18`), file path or http(s) URL.
 * Revisions come from the spec dir when one is configured, else from the copies shipped in the
 * package, else from the user cache, else from the official repository (then cached). Every failure is an InputError naming the input.
 */
export async function resolveSpec(input: string, opts: ResolveSpecOptions = {}): Promise<LoadedSpec> {
  const fetchImpl = opts.fetch ?? globalThis.fetch;
  if (isKnownRevision(input)) return loadRevision(input, opts, fetchImpl);

  if (/^https?:\/\//i.test(input)) {
    const revision = revisionFor(input, opts);
    return fromText(await downloadText(input, fetchImpl), input, revision, []);
  }

  const text = await readIfPresent(input);
  if (text === undefined) {
    if (looksLikePath(input)) throw inputProblem(input, 'no such file');
    throw inputProblem(input, `unknown revision ${JSON.stringify(input)}`, `known revisions: ${KNOWN_REVISIONS.join(', ')}; or give a file path or an http(s) URL`);
  }
  return fromText(text, input, revisionFor(input, opts), []);
}

async function loadRevision(revision: KnownRevision, opts: ResolveSpecOptions, fetchImpl: typeof fetch): Promise<LoadedSpec> {
  const specDir = opts.specDir ?? nonEmpty(process.env['MCP_SPEC_DIR']);
  if (specDir !== undefined) {
    const path = join(specDir, revision, 'schema.json');
    const text = await readIfPresent(path);
    if (text === undefined) throw inputProblem(path, `no schema for revision ${revision} in the spec dir`, `expected ${join(specDir, '<revision>', 'schema.json')}`);
    return fromText(text, path, revision, []);
  }
  const bundledDir = opts.bundledDir ?? BUNDLED_SPEC_DIR;
  if (bundledDir !== false) {
    const path = join(bundledDir, revision, 'schema.json');
    const text = await readIfPresent(path);
    if (text !== undefined) return fromText(text, path, revision, []);
  }

  const cachePath = join(cacheRoot(opts), 'spec', revision, 'schema.json');
  const cached = await readIfPresent(cachePath);
  // Dated revisions never change once published; the draft does, so it is refreshed when possible.
  if (cached !== undefined && revision !== 'draft') return fromText(cached, cachePath, revision, []);

  const url = specUrl(revision);
  let text: string;
  try {
    text = await downloadText(url, fetchImpl);
  } catch (error) {
    if (cached === undefined) throw error;
    const stale = unplacedDiagnostic(url, '', 'could not refresh the draft schema; using the cached copy', OFFLINE_HINT);
    return fromText(cached, cachePath, revision, [stale]);
  }
  // Parse before caching: a captive portal's HTML must not poison the cache.
  const loaded = fromText(text, url, revision, []);
  const cacheFailure = await storeInCache(cachePath, text);
  if (cacheFailure) loaded.warnings.push(...cacheFailure.diagnostics);
  return loaded;
}

/** Far above any published schema's size; anything this large is not a protocol schema. */
const MAX_SPEC_CHARS = 16 * 1024 * 1024;

function fromText(text: string, source: string, revision: string, warnings: Diagnostic[]): LoadedSpec {
  if (text.length > MAX_SPEC_CHARS) throw inputProblem(source, `too large for a protocol schema (${text.length} characters, at most ${MAX_SPEC_CHARS})`);
  const normalized = normalizeSpecDocument(parseJsonDocument(text, source), source);
  return { revision, dialect: normalized.dialect, source, defs: normalized.defs, warnings: [...warnings, ...normalized.warnings] };
}

/** The revision of a file or URL: the explicit option, else a revision-like segment of its path. */
function revisionFor(input: string, opts: ResolveSpecOptions): string {
  if (opts.revision !== undefined) return opts.revision;
  const segments = input.split(/[/\\]/).reverse();
  const found = segments.find((s) => isKnownRevision(s) || /^\d{4}-\d{2}-\d{2}$/.test(s));
  if (found !== undefined) return found;
  throw inputProblem(input, 'cannot tell which protocol revision this schema is', 'keep it in a folder named after its revision (…/2025-06-18/schema.json) or pass the revision explicitly');
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
