// An output folder's text, for tests comparing two runs' bytes: every file by path relative to
// the folder, but the unit cache (what it holds depends on the runs before, never the output).
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { UNIT_CACHE_FILE } from '../../src/write/unit-cache.js';

export async function outputFiles(dir: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === UNIT_CACHE_FILE) continue;
    const path = join(entry.parentPath, entry.name);
    result[relative(dir, path)] = await readFile(path, 'utf8');
  }
  return result;
}
