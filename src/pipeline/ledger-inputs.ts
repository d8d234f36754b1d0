import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { sha256Hex } from '../schema/sha256.js';
import { specDigest, specNamedBy, type LoadedSpec } from '../load/spec.js';
import type { RecipeInput } from '../write/ledger.js';

/**
 * The inputs a ledger records: each file's path relative to the output folder and its SHA-256.
 * `mcp-gen check` reads the same paths back (pathInOut) to compare them with the disk.
 */

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
  return { role, path: pathFromOut(outDir, target), sha256: sha256Hex(await readFile(target)) };
}

/** `--spec` as a ledger records it: a name or URL as given, a path relative to the output folder. */
export function specOption(out: string, input: string, spec: LoadedSpec): string {
  return specNamedBy(input, spec) === 'path' ? pathFromOut(out, input) : input;
}

/** The spec's ledger input: a file by its bytes, a name or URL by the definitions it loaded to. */
export async function specInput(out: string, input: string, spec: LoadedSpec): Promise<RecipeInput> {
  const by = specNamedBy(input, spec);
  if (by === 'url') return { role: 'spec', url: input, sha256: specDigest(spec) };
  if (by === 'name') return { role: 'spec', revision: input, sha256: specDigest(spec) };
  return fileInput('spec', out, spec.source);
}
