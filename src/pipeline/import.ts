/**
 * `mcp-gen import openapi` on disk: imports the description (src/import), writes the manifest as
 * YAML (or JSON for a `.json` name) in one rename, so a failure leaves no half-written file.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { importOpenApi, type ImportOptions, type ImportResult } from '../import/index.js';
import { inputProblem } from '../load/diagnostics.js';
import { MAX_MANIFEST_BYTES } from '../load/manifest.js';
import type { ServiceModel } from '../model/service-model.js';
import { loadManifest } from './manifest.js';

export interface ImportRun extends ImportResult {
  /** The manifest's text as written. */
  text: string;
}

const BANNER = [
  '# yaml-language-server: $schema=https://unpkg.com/mcp-gen/schema/manifest.schema.json',
  '#',
  '# Imported from an OpenAPI description by `mcp-gen import openapi`. This file is yours: curate tool',
  '# names and descriptions (they are what the model reads), remove tools, then run `mcp-gen server`.',
  '# `upstream.source` lets `mcp-gen check` report when the description changes.',
  '',
].join('\n');

export async function importToFile(location: string, out: string, options: ImportOptions): Promise<ImportRun> {
  const isUrl = /^https?:\/\//i.test(location);
  // The manifest names a local description relative to itself, so the pair can move together.
  const sourceReference = isUrl ? location : relative(dirname(resolve(out)), resolve(location)).split(sep).join('/');
  const result = await importOpenApi(location, { ...options, sourceReference });
  const text = await manifestText(result.manifest, out);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_MANIFEST_BYTES) {
    // Written, no command would read it: say so now, with the tags to select by.
    const tags = result.warnings.find((w) => w.message.includes('models choose badly'))?.message.match(/--tag, e\.g\. (.*?), or with --path/)?.[1];
    throw inputProblem(location, `the manifest would be ${(bytes / 1024 / 1024).toFixed(1)} MiB (${result.stats.tools} tools), more than the ${MAX_MANIFEST_BYTES / 1024 / 1024} MiB mcp-gen reads`, `import a part of it with --tag${tags ? ` (${tags})` : ''}, --path or --operation`);
  }
  const temporary = `${out}.${process.pid}.tmp`;
  try {
    // `-o api/manifest.yaml` in a fresh project: the folder is made, as every other command's `-o` is.
    mkdirSync(dirname(resolve(out)), { recursive: true });
    writeFileSync(temporary, text);
    renameSync(temporary, out);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return { ...result, text };
}

export async function manifestText(manifest: unknown, out: string): Promise<string> {
  if (out.endsWith('.json')) return JSON.stringify(manifest, null, 2) + '\n';
  const { stringify } = await import('yaml');
  // No folding and no aliases: the same bytes every time, and text as the description wrote it.
  return BANNER + stringify(manifest, { lineWidth: 0, aliasDuplicateObjects: false });
}

/**
 * The server model of an OpenAPI description, as `mcp-gen import openapi` would write it: what
 * `mcp-gen diff` compares when given descriptions. The manifest passes through a temporary file
 * so that it is read by the very loader every command uses.
 */
export async function openApiModel(location: string): Promise<ServiceModel> {
  const { manifest } = await importOpenApi(location);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-openapi-'));
  try {
    const file = join(dir, 'manifest.json');
    writeFileSync(file, JSON.stringify(manifest));
    return (await loadManifest(file)).model;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Whether a file is an OpenAPI (or Swagger) description rather than a manifest or snapshot: its
 * top level has `openapi` or `swagger`. A YAML manifest never has either at column 0.
 */
export function looksLikeOpenApiFile(path: string): boolean {
  try {
    if (statSync(path).size > 64 * 1024 * 1024) return false;
    const text = readFileSync(path, 'utf8');
    if (extname(path).toLowerCase() !== '.json') return /^(?:openapi|swagger|["']openapi["']|["']swagger["'])\s*:/m.test(text);
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && ('openapi' in value || 'swagger' in value);
  } catch {
    return false;
  }
}
