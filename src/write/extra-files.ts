/**
 * `--check` and `mcp-gen check`: files lying in the folders mcp-gen owns that no run of this
 * command would write (a file copied into `generated/`, with the banner or without). A subfolder
 * of the output is mcp-gen's when the run plans generated files in it and no user-owned file at or
 * below it (a server's `generated/`, a client's `runtime/`); the output folder itself only when the
 * command says it is wholly its own (a client's). User-owned places (`handlers/`, the server
 * folder beside `main.ts`, a docs or types folder the user shares) are never walked, and a nested
 * output (its own ledger) is left to its own check.
 */
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { LEDGER_FILE } from './ledger.js';
import type { PlannedFile } from './planned-file.js';
import { UNIT_CACHE_FILE } from './unit-cache.js';

/** mcp-gen's own bookkeeping beside the files, at the output's root. */
const BOOKKEEPING = new Set([LEDGER_FILE, UNIT_CACHE_FILE]);

/** The topmost folders (posix, relative to the output; `''` the output itself) holding only mcp-gen's files. */
function ownedFolders(files: readonly PlannedFile[], ownsRoot: boolean): string[] {
  const generated = new Set<string>();
  const user = new Set<string>();
  for (const file of files) {
    const mark = file.owner === 'user' ? user : generated;
    for (let folder = posix.dirname(file.path); ; folder = posix.dirname(folder)) {
      mark.add(folder === '.' ? '' : folder);
      if (folder === '.' || folder === '') break;
    }
  }
  const owned = (folder: string): boolean => generated.has(folder) && !user.has(folder) && (folder !== '' || ownsRoot);
  const parent = (folder: string): string | undefined => (folder === '' ? undefined : posix.dirname(folder) === '.' ? '' : posix.dirname(folder));
  return [...generated].filter((folder) => owned(folder) && !owned(parent(folder) ?? '\u0000')).sort();
}

/** Files in the owned folders of `root` that are not planned (sorted posix paths relative to `root`). */
export async function unplannedFiles(root: string, files: readonly PlannedFile[], ownsRoot: boolean): Promise<string[]> {
  const planned = new Set(files.map((f) => f.path));
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(join(root, ...folder.split('/').filter(Boolean)), { withFileTypes: true });
    } catch {
      return; // not there yet: its files are reported missing
    }
    // Another output's folder inside this one is checked through its own ledger.
    if (folder !== '' && entries.some((e) => e.name === LEDGER_FILE)) return;
    for (const entry of entries) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (!planned.has(path) && !(folder === '' && BOOKKEEPING.has(entry.name))) found.push(path);
    }
  };
  for (const folder of ownedFolders(files, ownsRoot)) await walk(folder);
  return found.sort();
}
