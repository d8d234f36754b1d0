/**
 * `mcp-gen import openapi` on disk: imports the description (src/import), writes the manifest as
 * YAML (or JSON for a `.json` name) in one rename, so a failure leaves no half-written file.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { importOpenApi, type ImportOptions, type ImportResult } from '../import/index.js';

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
  const temporary = `${out}.${process.pid}.tmp`;
  try {
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
