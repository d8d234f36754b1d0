import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/load/diagnostics.js';
import type { Diagnostic } from '../../src/load/diagnostics.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import type { LoadManifestOptions } from '../../src/pipeline/manifest.js';

export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** The problems a manifest is rejected with; fails when it loads. */
export async function problemsOf(manifestPath: string, options: LoadManifestOptions = {}): Promise<readonly Diagnostic[]> {
  try {
    await loadManifest(manifestPath, options);
  } catch (error) {
    if (error instanceof InputError) return error.diagnostics;
    throw error;
  }
  throw new Error(`${manifestPath} loaded without problems`);
}

/** `line:column pointer message`: position, place and wording in one comparable line. */
export function brief(d: Diagnostic): string {
  return `${d.line}:${d.column} ${d.pointer} ${d.message}`;
}

/** Writes `files` (relative path → text) under a fresh temporary folder and returns it. */
export async function tempProject(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'mcp-gen-manifest-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  return root;
}
