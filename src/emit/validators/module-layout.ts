import { NOCHECK_LINE, typeExpression, VALIDATOR_TYPES } from './declarations.js';
import type { ValidatorEntry } from './index.js';
import { SHARED_TABLE } from './shared-defs.js';

/**
 * How a server's split validators are written (docs/architecture.md, "Validators as JavaScript"):
 * - `ts`: each module TypeScript, ajv's code under `@ts-nocheck` with its export annotated. Every
 *   build carries them, and tsc transforms megabytes of machine-made code on every clean build.
 * - `js`: each module JavaScript beside its declarations (`.js` + `.d.ts`). tsc reads the few lines
 *   of declarations and never rebuilds the code; importers name the modules through the project's
 *   package.json `imports` (VALIDATOR_IMPORTS), which resolves to the same files from the sources
 *   and from the build folder, for Node, tsx, bundlers and Bun alike.
 */
export type ValidatorLayout = 'ts' | 'js';

/** The package.json `imports` entry the `js` layout needs: importers name a tool's module `#generated/validators/<tool>.js`. */
export const VALIDATOR_IMPORTS = { key: '#generated/validators/*', target: './generated/validators/*' } as const;

/** A tool module's specifier through VALIDATOR_IMPORTS. */
export function importedToolModule(module: string): string {
  return `${VALIDATOR_IMPORTS.key.slice(0, -1)}${module}.js`;
}

/** The specifiers a tool module and the shared module import (relative, with the chosen extension for TypeScript). */
export interface ModuleSpecifiers {
  typesModule: string;
  helpersModule: string;
  sharedModule?: string;
  helpersFromShared?: string;
}

/** A written module: its text, and in the `js` layout its declarations. */
export interface ModuleTexts {
  text: string;
  dts?: string;
}

/** JavaScript imports name the files as they are on disk, whatever extension TypeScript specifiers use. */
function onDisk(specifier: string): string {
  return specifier.replace(/\.ts$/, '.js');
}

/** One tool's module around ajv's code for its scope (`\nexport const [A, B] = (() => {…})();`). */
export function toolModuleTexts(
  layout: ValidatorLayout,
  code: string,
  entries: readonly ValidatorEntry[],
  uses: readonly string[],
  sharedStubs: boolean,
  paths: ModuleSpecifiers,
): ModuleTexts {
  const names = entries.map((e) => e.exportName).join(', ');
  const before = `\nexport const [${names}] = `;
  if (!code.startsWith(before)) throw new Error(`emitToolValidators: unexpected code for ${names}`);
  const helpersFrom = layout === 'js' ? onDisk(paths.helpersModule) : paths.helpersModule;
  const sharedFrom = layout === 'js' ? onDisk(paths.sharedModule ?? '') : paths.sharedModule;
  const valueImports = [
    uses.length === 0 ? '' : `import { ${uses.join(', ')} } from ${JSON.stringify(helpersFrom)};\n`,
    sharedStubs ? `import { ${SHARED_TABLE} } from ${JSON.stringify(sharedFrom)};\n` : '',
  ].join('');
  const typeImports = `import type * as Types from ${JSON.stringify(paths.typesModule)};\nimport type { Validator } from ${JSON.stringify(helpersFrom)};\n`;
  if (layout === 'js') {
    const dts = `${typeImports}${entries.map((e) => `export declare const ${e.exportName}: Validator<${typeExpression(e.typeName)}>;\n`).join('')}`;
    return { text: `${valueImports}${code.slice(1)}`, dts };
  }
  // TypeScript: ajv's code unchecked, its one export annotated with the validators' types.
  const annotated = `export const [${names}]: [${entries.map((e) => `Validator<${typeExpression(e.typeName)}>`).join(', ')}] = ${code.slice(before.length)}`;
  return { text: `${NOCHECK_LINE}${typeImports}${valueImports}${annotated}` };
}

/** The shared definitions' module around its table code (shared-defs.ts `sharedTableCode`). */
export function sharedModuleTexts(layout: ValidatorLayout, tableCode: string, uses: readonly string[], helpersFromShared: string): ModuleTexts {
  const from = layout === 'js' ? onDisk(helpersFromShared) : helpersFromShared;
  const imports = uses.length === 0 ? '' : `import { ${uses.join(', ')} } from ${JSON.stringify(from)};\n`;
  if (layout === 'ts') return { text: `${NOCHECK_LINE}${imports}${tableCode}` };
  const dts = `import type { Validator } from ${JSON.stringify(from)};\n\n/** Each definition several tools share, by name: the tools' validators call it. */\nexport declare const ${SHARED_TABLE}: Readonly<Record<string, Validator<unknown>>>;\n`;
  return { text: `${imports}${tableCode}`, dts };
}

/** The helpers every validator module calls (`code`, exporting `used`), with the `Validator` types. */
export function helpersModuleTexts(layout: ValidatorLayout, code: string, used: readonly string[]): ModuleTexts {
  const exports = used.length === 0 ? '' : `export { ${used.join(', ')} };\n`;
  if (layout === 'ts') return { text: `${NOCHECK_LINE}${VALIDATOR_TYPES}\n\n${code}${exports}` };
  // The functions are the validator modules' own business: TypeScript needs only the two types.
  return { text: `${code}${exports}`, dts: `${VALIDATOR_TYPES}\n` };
}
