import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import type { RecipeInput } from '../write/ledger.js';

/**
 * The inputs a ledger records: each file's path relative to the output folder and its SHA-256,
 * and the comparison `mcp-gen check` makes against the disk before it regenerates anything.
 */

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `target` relative to `outDir`, posix, for the ledger (never absolute, so never machine-specific). */
export function pathFromOut(outDir: string, target: string): string {
  const rel = relative(resolve(outDir), resolve(target)).split(sep).join('/');
  return rel === '' ? '.' : rel;
}

/** A ledger path back to an absolute one. */
export function pathInOut(outDir: string, recorded: string): string {
  return isAbsolute(recorded) ? recorded : resolve(outDir, ...recorded.split('/'));
}

export async function fileInput(role: RecipeInput['role'], outDir: string, target: string): Promise<RecipeInput> {
  return { role, path: pathFromOut(outDir, target), sha256: sha256(await readFile(target)) };
}

export interface InputChanges {
  /** Recorded paths whose bytes differ from what was hashed then. */
  changed: string[];
  /** Recorded paths that are gone (or unreadable). */
  vanished: string[];
}

/** Compares every recorded file input with the disk; revision- and URL-named specs are compared after regeneration. */
export async function compareInputs(outDir: string, inputs: readonly RecipeInput[]): Promise<InputChanges> {
  const changes: InputChanges = { changed: [], vanished: [] };
  for (const input of inputs) {
    if (input.path === undefined) continue;
    let bytes: Buffer;
    try {
      bytes = await readFile(pathInOut(outDir, input.path));
    } catch {
      changes.vanished.push(input.path);
      continue;
    }
    if (sha256(bytes) !== input.sha256) changes.changed.push(input.path);
  }
  return changes;
}

/** Inputs named without a path (a spec revision, a URL) whose hash differs between two recipes. */
export function changedUnnamedInputs(recorded: readonly RecipeInput[], fresh: readonly RecipeInput[]): string[] {
  const key = (i: RecipeInput): string | undefined => (i.revision !== undefined ? `spec ${i.revision}` : i.url !== undefined ? i.url : undefined);
  const now = new Map(fresh.map((i) => [key(i), i.sha256]));
  return recorded.filter((i) => i.path === undefined && key(i) !== undefined && now.has(key(i)) && now.get(key(i)) !== i.sha256).map((i) => key(i) as string);
}

export const toPosix = (p: string): string => posix.normalize(p.split(sep).join('/'));
