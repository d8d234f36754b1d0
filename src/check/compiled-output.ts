/**
 * Files beside the generated ones that tsc wrote from them: with no `outDir` (`tsc --init`'s
 * default) tsc puts `x.js`, `x.d.ts` and their maps next to each generated `x.ts`. They are not
 * mcp-gen's to judge, and not strays someone left there either; `mcp-gen check` lists them apart.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** What tsc writes for `x.ts`: x.js (sourceMap: x.js.map), x.d.ts (declarationMap: x.d.ts.map). */
const COMPILED = /^(.*)\.(?:js|js\.map|d\.ts|d\.ts\.map)$/;

/** The folder's unplanned files, split: tsc's output of a generated `.ts`, and the rest. */
export function splitCompiledOutput(out: string, extra: readonly string[], missing: readonly string[]): { compiled: string[]; stray: string[] } {
  const unplanned = new Set(extra);
  const generated = (path: string): boolean => !unplanned.has(path) && (missing.includes(path) || existsSync(join(out, ...path.split('/'))));
  const compiled: string[] = [];
  const stray: string[] = [];
  for (const path of extra) {
    const base = COMPILED.exec(path)?.[1];
    // x.d.ts is a generated file of its own in some outputs: only a planned x.ts makes it compiled.
    if (base !== undefined && generated(`${base}.ts`)) compiled.push(path);
    else stray.push(path);
  }
  return { compiled, stray };
}
