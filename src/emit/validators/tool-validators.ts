import type { Dialect } from './ajv-instance.js';
import { compileUnits, type CompileUnitsOptions } from './compile-units.js';
import { checkExportNames, declarations } from './declarations.js';
import { helperCode } from './inline-helpers.js';
import type { CompiledValidatorCode, EmittedValidators, ValidatorEntry } from './index.js';

/**
 * The tools' validators (`validators.js` of a server or a client), compiled one tool at a time so a
 * run can reuse every tool it compiled before: each tool is its own compilation with a fresh ajv,
 * its code depends on nothing but its own schemas, and the module is the concatenation of the
 * tools' code, each in its own function scope (ajv's `validate12`-style names restart with every
 * compilation), behind the helpers they call, declared once.
 */

/** One tool's schemas: a root document holding them and the validators exported from it. */
export interface ToolValidatorUnit {
  root: object;
  entries: readonly ValidatorEntry[];
  /**
   * What the unit's code depends on, as the memo's input, when the caller can say it more cheaply
   * than `root`: with it, `root` is read only when the unit is compiled (a getter may build it).
   * Without it the input is `root` and the entries.
   */
  memoInput?: string;
  /** Its schemas were found valid against the dialect's meta-schema already (src/schema/meta-checked.ts). */
  metaChecked?: boolean;
}

/** Same kind and input, same result; `UnitCache.memo` in the CLI, plain computation without it. */
export type Memo = (kind: string, input: string, compute: () => string) => string;

const computeOnly: Memo = (_kind, _input, compute) => compute();

export async function emitToolValidators(
  units: readonly ToolValidatorUnit[],
  dialect: Dialect,
  typesModule: string,
  memo: Memo = computeOnly,
  options: CompileUnitsOptions = {},
): Promise<EmittedValidators> {
  const entries = units.flatMap((u) => u.entries);
  checkExportNames({ entries });
  const helpers = new Set<string>();
  const warnings = new Set<string>();
  const scopes: string[] = [];
  for (const compiled of await compiledUnits(units, dialect, memo, options)) {
    compiled.helpers.forEach((h) => helpers.add(h));
    compiled.warnings.forEach((w) => warnings.add(w));
    scopes.push(compiled.code);
  }
  const js = `${helperCode(helpers)}${scopes.join('')}`;
  return { js, dts: declarations({ entries, typesModule }), warnings: [...warnings] };
}

/** A tool's validators in a module of their own (`generated/validators/<module>.js`). */
export interface ToolModuleUnit extends ToolValidatorUnit {
  /** File name without extension: the tool's identifier, unique ignoring case. */
  module: string;
}

export interface SplitValidators {
  /** `<module>.js` per tool: its validators, importing the helpers they call from `helpersModule`. */
  modules: { module: string; js: string }[];
  /** The helpers every tool module calls, declared once and exported. */
  helpers: string;
  /** Every validator re-exported from its tool's module, for code that wants them all at once. */
  js: string;
  dts: string;
  warnings: string[];
}

/**
 * The tools' validators one module per tool, so a server loads a tool's validators on its first
 * call and starts without parsing any (a thousand tools make 20 MB of validators). Each module is
 * the same code `emitToolValidators` concatenates. `helpersModule` and `modulesDir` are relative
 * paths: from a tool module to the helpers, and from the index to the tool modules.
 */
export async function emitSplitToolValidators(
  units: readonly ToolModuleUnit[],
  dialect: Dialect,
  paths: { typesModule: string; helpersModule: string; modulesDir: string },
  memo: Memo = computeOnly,
  options: CompileUnitsOptions = {},
): Promise<SplitValidators> {
  const entries = units.flatMap((u) => u.entries);
  checkExportNames({ entries });
  const helpers = new Set<string>();
  const warnings = new Set<string>();
  const modules: SplitValidators['modules'] = [];
  const index: string[] = [];
  const compiledAll = await compiledUnits(units, dialect, memo, options);
  for (const [i, unit] of units.entries()) {
    const compiled = compiledAll[i] as CompiledValidatorCode;
    compiled.warnings.forEach((w) => warnings.add(w));
    compiled.helpers.forEach((h) => helpers.add(h));
    const uses = [...new Set(compiled.helpers)].sort();
    const imports = uses.length === 0 ? '' : `import { ${uses.join(', ')} } from ${JSON.stringify(paths.helpersModule)};\n`;
    modules.push({ module: unit.module, js: `${imports}${compiled.code.replace(/^\n/, '')}` });
    index.push(`export { ${unit.entries.map((e) => e.exportName).join(', ')} } from ${JSON.stringify(`${paths.modulesDir}/${unit.module}.js`)};\n`);
  }
  const used = [...helpers].sort();
  const helperModule = `${helperCode(helpers)}${used.length === 0 ? '' : `export { ${used.join(', ')} };\n`}`;
  return { modules, helpers: helperModule, js: index.join(''), dts: declarations({ entries, typesModule: paths.typesModule }), warnings: [...warnings] };
}

const MEMO_KIND = 'tool-validators';

/** Thrown by the compute step of a lookup: the memo calls it only for what it does not know. */
const NOT_CACHED = Symbol('not cached');

/**
 * Every unit's compiled code: what the memo knows is taken from it, the rest is compiled in one
 * batch (compile-units.ts, in worker threads when there are many) and handed to the memo in tool
 * order. A memo computes on a miss, so a lookup whose compute throws NOT_CACHED finds out what is
 * missing without computing it.
 */
async function compiledUnits(units: readonly ToolValidatorUnit[], dialect: Dialect, memo: Memo, options: CompileUnitsOptions): Promise<CompiledValidatorCode[]> {
  const inputs = units.map((unit) =>
    unit.memoInput !== undefined
      ? JSON.stringify({ dialect, unit: unit.memoInput })
      : JSON.stringify({ dialect, root: unit.root, entries: unit.entries.map((e) => [e.exportName, e.ref]) }),
  );
  const results: (CompiledValidatorCode | undefined)[] = inputs.map((input) => {
    try {
      return decodeCompiled(memo(MEMO_KIND, input, () => {
        throw NOT_CACHED;
      }));
    } catch (error) {
      if (error === NOT_CACHED) return undefined;
      throw error;
    }
  });
  const missing = [...results.keys()].filter((i) => results[i] === undefined);
  if (missing.length > 0) {
    // Plain units: a worker gets a copy of the data, not the caller's getters and extra fields.
    const toCompile = missing.map((i) => ({ root: (units[i] as ToolValidatorUnit).root, entries: (units[i] as ToolValidatorUnit).entries, ...((units[i] as ToolValidatorUnit).metaChecked ? { metaChecked: true } : {}) }));
    const compiled = await compileUnits(toCompile, dialect, options);
    missing.forEach((unitIndex, i) => {
      const value = compiled[i] as CompiledValidatorCode;
      memo(MEMO_KIND, inputs[unitIndex] as string, () => encodeCompiled(value));
      results[unitIndex] = value;
    });
  }
  return results as CompiledValidatorCode[];
}

/**
 * A unit's cached form: one JSON line with its helpers and warnings, then its code as it is. A warm
 * run reads a thousand of them; JSON-parsing 20 MB of code to get them back took longer than this.
 */
function encodeCompiled(compiled: CompiledValidatorCode): string {
  return `${JSON.stringify({ helpers: compiled.helpers, warnings: compiled.warnings })}\n${compiled.code}`;
}

function decodeCompiled(value: string): CompiledValidatorCode {
  const newline = value.indexOf('\n');
  const head = JSON.parse(value.slice(0, newline)) as Pick<CompiledValidatorCode, 'helpers' | 'warnings'>;
  return { code: value.slice(newline + 1), helpers: head.helpers, warnings: head.warnings };
}
