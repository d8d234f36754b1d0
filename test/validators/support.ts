/**
 * Shared by the validator tests: where the MCP spec lives, loading a revision, and loading an
 * emitted validator module the way a user's program would (an .mjs file on disk).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Dialect } from '../../src/emit/validators/index.js';
import { defaultSpecDir } from '../../src/pipeline/paths.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'draft'] as const;
export type Revision = (typeof REVISIONS)[number];

/** The spec folder; a missing one is an error, never a reason to skip. */
export function specDir(): string {
  const dir = defaultSpecDir();
  if (!existsSync(join(dir, '2025-11-25', 'schema.json'))) {
    throw new Error(
      `MCP spec not found at ${dir}: set MCP_SPEC_DIR to the folder holding <revision>/schema.json (the repository has it under schema/mcp-spec)`,
    );
  }
  return dir;
}

export interface LoadedRevision {
  revision: Revision;
  root: Record<string, unknown>;
  dialect: Dialect;
  /** `$defs` or `definitions`, whichever the document uses. */
  defsKeyword: '$defs' | 'definitions';
  defs: Record<string, unknown>;
}

export function loadRevision(revision: Revision): LoadedRevision {
  const root = JSON.parse(readFileSync(join(specDir(), revision, 'schema.json'), 'utf8')) as Record<string, unknown>;
  const schemaUri = String(root['$schema']);
  const dialect: Dialect = schemaUri.includes('2020-12') ? '2020-12' : schemaUri.includes('draft-07') ? 'draft-07' : fail(schemaUri);
  const defsKeyword = root['$defs'] !== undefined ? '$defs' : 'definitions';
  return { revision, root, dialect, defsKeyword, defs: root[defsKeyword] as Record<string, unknown> };
}

function fail(schemaUri: string): never {
  throw new Error(`unknown $schema ${schemaUri}`);
}

/** `{ exampleName: parsed JSON }` per type folder of the 2026-07-28 examples. */
export function loadExamples(): Map<string, Map<string, unknown>> {
  const dir = join(specDir(), '2026-07-28', 'examples');
  const byType = new Map<string, Map<string, unknown>>();
  for (const type of readdirSync(dir).sort()) {
    const files = new Map<string, unknown>();
    for (const file of readdirSync(join(dir, type)).sort()) {
      if (file.endsWith('.json')) files.set(file, JSON.parse(readFileSync(join(dir, type, file), 'utf8')));
    }
    byType.set(type, files);
  }
  return byType;
}

/** A JS identifier for a definition name (they are plain in every revision; asserted, not assumed). */
export function exportNameFor(definition: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(definition)) throw new Error(`unexpected definition name ${definition}`);
  return `validate${definition}`;
}

export interface TempDir {
  path: string;
  write(name: string, content: string): string;
  remove(): void;
}

export function tempDir(prefix: string): TempDir {
  const path = mkdtempSync(join(tmpdir(), `mcp-gen-${prefix}-`));
  return {
    path,
    write: (name, content) => {
      const file = join(path, name);
      writeFileSync(file, content);
      return file;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

export type ValidatorFn = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** Writes an emitted module to a temp folder (where no ajv can resolve) and imports it. */
export async function importEmitted(dir: TempDir, name: string, js: string): Promise<Record<string, ValidatorFn>> {
  const file = dir.write(`${name}.mjs`, js);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, ValidatorFn>;
}
