import { readFile } from 'node:fs/promises';
import { pathInOut } from '../pipeline/ledger-inputs.js';
import { sha256Hex } from '../schema/sha256.js';
import type { RecipeInput } from '../write/ledger.js';

/** The comparison `mcp-gen check` makes between a ledger's recorded inputs and the disk before it regenerates anything. */

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
    if (sha256Hex(bytes) !== input.sha256) changes.changed.push(input.path);
  }
  return changes;
}

/** Inputs named without a path (a spec revision, a URL) whose hash differs between two recipes. */
export function changedUnnamedInputs(recorded: readonly RecipeInput[], fresh: readonly RecipeInput[]): string[] {
  const key = (i: RecipeInput): string | undefined => (i.revision !== undefined ? `spec ${i.revision}` : i.url !== undefined ? i.url : undefined);
  const now = new Map(fresh.map((i) => [key(i), i.sha256]));
  return recorded.filter((i) => i.path === undefined && key(i) !== undefined && now.has(key(i)) && now.get(key(i)) !== i.sha256).map((i) => key(i) as string);
}
