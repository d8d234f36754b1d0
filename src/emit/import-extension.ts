import type { PlannedFile } from '../write/planned-file.js';

/**
 * `--import-extension`: what the relative module specifiers of generated TypeScript end with.
 * `js` (the default) is what `tsc` and bundlers resolve to the `.ts` file; `ts` is what runtimes
 * that run TypeScript as it is need (Deno, Node's type stripping, Bun), which look for the file
 * named.
 */
export type ImportExtension = 'js' | 'ts';

/** Files whose specifiers their emitter already wrote with the chosen extension, or that import nothing (and that are big). */
const WRITTEN_WITH_EXTENSION = /(?:^|\/)(?:validators|validator-helpers|tool-definitions|[a-z][a-z0-9-]*-validators)\.ts$|(?:^|\/)validators\/[^/]+\.ts$/;

/**
 * The planned files with every relative `./…js`/`../…js` module specifier of their TypeScript
 * ending in `.ts` instead: static imports, re-exports, `import type` and `import()` calls, found by
 * TypeScript's own pre-processor, so text in strings and comments is never touched. Same input,
 * same bytes. A user-owned file's merge result is rewritten the same way (what the merge adds
 * names modules by `.js`). `js` returns the files as they are.
 */
export async function withImportExtension(files: PlannedFile[], extension: ImportExtension): Promise<PlannedFile[]> {
  if (extension === 'js') return files;
  // Loaded only for this option: ts-morph carries the TypeScript compiler.
  const { ts } = await import('ts-morph');
  const rewrite = (text: string): string => rewriteSpecifiers(text, (source) => ts.preProcessFile(source, true, true).importedFiles);
  return files.map((file) => {
    if (!file.path.endsWith('.ts') || WRITTEN_WITH_EXTENSION.test(file.path) || file.produce) return file;
    const merge = file.merge;
    return {
      ...file,
      content: rewrite(file.content),
      ...(merge
        ? {
            merge: async (existing: string, memo?: Parameters<typeof merge>[1]) => {
              const merged = await merge(existing, memo);
              return merged === undefined ? undefined : rewrite(merged);
            },
          }
        : {}),
    };
  });
}

/** `pos`: the opening quote of a specifier whose text is `fileName` (TypeScript's FileReference). */
type Reference = { fileName: string; pos: number };

export function rewriteSpecifiers(text: string, references: (text: string) => readonly Reference[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const ref of references(text)) {
    if (!/^\.\.?\/.*\.js$/.test(ref.fileName)) continue;
    const start = ref.pos + 1;
    const end = start + ref.fileName.length;
    // A specifier written with escapes is not the text it names: left alone.
    if (text.slice(start, end) !== ref.fileName) continue;
    parts.push(text.slice(at, end - 2), 'ts');
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
