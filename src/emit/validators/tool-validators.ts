import { sha256Hex } from '../../schema/sha256.js';
import type { Dialect } from './ajv-instance.js';
import { compileUnits, type CompileUnitsOptions } from './compile-units.js';
import { checkExportNames, declarations, NOCHECK_LINE, typeExpression, VALIDATOR_TYPES } from './declarations.js';
import { helperCode } from './inline-helpers.js';
import type { CompiledValidatorCode, EmittedValidators, ValidatorEntry } from './index.js';
import { helpersModuleTexts, importedToolModule, sharedModuleTexts, toolModuleTexts, type ModuleTexts, type ValidatorLayout } from './module-layout.js';
import { sharedExportNames, sharedTableCode, type SharedDefinitions } from './shared-defs.js';

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
  /** Its schemas hold stubs of shared definitions (shared-defs.ts): its code calls the `$shared` table. */
  sharedStubs?: boolean;
}

/** Same kind and input, same result; `UnitCache.memo` in the CLI, plain computation without it. */
export type Memo = (kind: string, input: string, compute: () => string) => string;

const computeOnly: Memo = (_kind, _input, compute) => compute();

/**
 * The unit cache's shared tier alone (src/write/shared-pack.ts: one pack per manifest, for every
 * output made from it): where a server keeps each tool's compiled code, which its own cache keeps
 * only by hash, so a server in a fresh folder finds the code instead of compiling it.
 */
export interface CodeShare {
  recallShared(kind: string, input: string): string | undefined;
  keepShared(kind: string, input: string, value: string): void;
}

export async function emitToolValidators(
  units: readonly ToolValidatorUnit[],
  dialect: Dialect,
  typesModule: string,
  memo: Memo = computeOnly,
  options: CompileUnitsOptions = {},
): Promise<EmittedValidators> {
  const entries = units.flatMap((u) => u.entries);
  checkExportNames({ entries });
  const { helpers, warnings, scopes } = await compiledScopes(units, dialect, memo, options, (code) => code);
  const js = `${helperCode(helpers)}${scopes.join('')}`;
  return { js, dts: declarations({ entries, typesModule }), warnings: [...warnings] };
}

/** Every unit compiled: the helpers they call, their warnings, and each unit's scope as `scope` makes it. */
async function compiledScopes(
  units: readonly ToolValidatorUnit[],
  dialect: Dialect,
  memo: Memo,
  options: CompileUnitsOptions,
  scope: (code: string, unit: ToolValidatorUnit) => string,
): Promise<{ helpers: Set<string>; warnings: Set<string>; scopes: string[] }> {
  const helpers = new Set<string>();
  const warnings = new Set<string>();
  const scopes: string[] = [];
  for (const [i, compiled] of (await compiledUnits(units, dialect, memo, options, 'code')).entries()) {
    compiled.helpers.forEach((h) => helpers.add(h));
    compiled.warnings.forEach((w) => warnings.add(w));
    scopes.push(scope(compiled.code as string, units[i] as ToolValidatorUnit));
  }
  return { helpers, warnings, scopes };
}

/**
 * The same as one TypeScript module (`validators.ts` of a client): ajv's code unchecked, each
 * tool's export annotated with its validators' types (`annotatedScope`), the types imported from
 * `typesModule`. Built from the tools' scopes directly: no scan of megabytes of validator code.
 */
export async function emitTypedToolValidators(
  units: readonly ToolValidatorUnit[],
  dialect: Dialect,
  typesModule: string,
  memo: Memo = computeOnly,
  options: CompileUnitsOptions = {},
  shared?: SharedDefinitions,
): Promise<{ ts: string; warnings: string[] }> {
  checkExportNames({ entries: units.flatMap((u) => u.entries) });
  const all = shared === undefined ? units : [...units, sharedUnit(shared)];
  const { helpers, warnings, scopes } = await compiledScopes(all, dialect, memo, options, (code, unit) =>
    unit === all[units.length] ? sharedTableCode(code, shared as SharedDefinitions, false) : annotatedScope(code, unit.entries),
  );
  // The table first: the tools' scopes call it as they are built.
  const table = shared === undefined ? '' : (scopes.pop() as string);
  const head = `${NOCHECK_LINE}import type * as Types from ${JSON.stringify(typesModule)};\n\n${VALIDATOR_TYPES}\n\n`;
  return { ts: `${head}${helperCode(helpers)}${table}${scopes.join('')}`, warnings: [...warnings] };
}

/** The shared definitions as one unit: each definition one entry, compiled together once. */
function sharedUnit(shared: SharedDefinitions): ToolValidatorUnit {
  const exportNames = sharedExportNames(shared);
  const pointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');
  const entries = Object.keys(shared.defs).map((name, i) => ({ exportName: exportNames[i] as string, ref: `#/${shared.keyword}/${pointer(name)}`, typeName: 'unknown' }));
  return { root: { [shared.keyword]: shared.defs }, entries, ...(shared.metaChecked === true ? { metaChecked: true } : {}) };
}

/** A tool's scope (compile-unit.ts: `\nexport const [A, B] = (() => {…`) with its export annotated: `export const [A, B]: [Validator<Types.X>, …] = `. */
function annotatedScope(code: string, entries: readonly ValidatorEntry[]): string {
  const names = entries.map((e) => e.exportName).join(', ');
  const before = `\nexport const [${names}] = `;
  if (!code.startsWith(before)) throw new Error(`emitToolValidators: unexpected code for ${names}`);
  return `\nexport const [${names}]: [${entries.map((e) => `Validator<${typeExpression(e.typeName)}>`).join(', ')}] = ${code.slice(before.length)}`;
}

/** A tool's validators in a module of their own (`generated/validators/<module>.js`). */
export interface ToolModuleUnit extends ToolValidatorUnit {
  /** File name without extension: the tool's identifier, unique ignoring case. */
  module: string;
}

/**
 * One tool's module. `key` fixes its text (everything around the code, and the hash of the code);
 * the text is `text`, or, when the unit cache knew the tool's code only by its hash, made by
 * `produce` (compiling the tool again), which the writer calls only if the file on disk is not that
 * text. `dts`: its declarations, in the `js` layout (module-layout.ts).
 */
export type ToolModule = { module: string; key: string; dts?: string } & ({ text: string } | { produce: () => Promise<string> });

export interface SplitValidators {
  /** A module per tool (`<module>.ts`, or `.js` and `.d.ts`): its validators, importing the helpers they call from `helpersModule`. */
  modules: ToolModule[];
  /** The shared definitions' module (`sharedModule`), when the tools share some. */
  shared?: ModuleTexts;
  /** The helpers every tool module calls, declared once and exported, with the `Validator` types. */
  helpers: ModuleTexts;
  /** Every validator re-exported from its tool's module, for code that wants them all at once. */
  index: string;
  warnings: string[];
}

/**
 * Relative module specifiers of the split modules: `typesModule` and `helpersModule` as a tool
 * module imports them, `modulesDir` from the index to the tool modules, and the extension that
 * relative specifiers end with (`js`, or `ts` for runtimes that run TypeScript as it is).
 */
export interface SplitPaths {
  typesModule: string;
  helpersModule: string;
  modulesDir: string;
  /** The helpers module as the index imports it (for the `Validator` types it re-exports). */
  helpersFromIndex: string;
  /** The shared definitions' module as a tool module imports it, and the helpers as it imports them (needed when the tools share definitions). */
  sharedModule?: string;
  helpersFromShared?: string;
  extension: 'js' | 'ts';
  /** How the modules are written (module-layout.ts); `ts` unless given. */
  layout?: ValidatorLayout;
}

/**
 * The tools' validators one module per tool, so a server loads a tool's validators on its first
 * call and starts without parsing any (a thousand tools make many megabytes of validators). Each module is
 * the same code `emitToolValidators` concatenates. `helpersModule` and `modulesDir` are relative
 * paths: from a tool module to the helpers, and from the index to the tool modules.
 */
export async function emitSplitToolValidators(
  units: readonly ToolModuleUnit[],
  dialect: Dialect,
  paths: SplitPaths,
  memo: Memo = computeOnly,
  options: CompileUnitsOptions & { share?: CodeShare } = {},
  shared?: SharedDefinitions,
): Promise<SplitValidators> {
  const entries = units.flatMap((u) => u.entries);
  checkExportNames({ entries });
  if (shared !== undefined && (paths.sharedModule === undefined || paths.helpersFromShared === undefined)) throw new Error('emitSplitToolValidators: shared definitions need paths.sharedModule and paths.helpersFromShared');
  const layout = paths.layout ?? 'ts';
  const helpers = new Set<string>();
  const warnings = new Set<string>();
  const modules: SplitValidators['modules'] = [];
  const index: string[] = [];
  // A module's text is in no other file: the cache keeps only its hash, and a warm run does not
  // need it at all when the file on disk is still that text. The shared definitions compile here
  // while the tools compile on worker threads.
  const { share, ...compileOptions } = options;
  const [compiledAll, sharedCompiled] = await Promise.all([
    compiledUnits(units, dialect, memo, compileOptions, 'hash', share),
    shared === undefined ? undefined : compiledUnits([sharedUnit(shared)], dialect, memo, { workers: 0 }, 'code').then((r) => r[0] as UnitResult),
  ]);
  for (const [i, unit] of units.entries()) {
    const compiled = compiledAll[i] as UnitResult;
    compiled.warnings.forEach((w) => warnings.add(w));
    compiled.helpers.forEach((h) => helpers.add(h));
    const uses = [...new Set(compiled.helpers)].sort();
    const texts = (code: string): ModuleTexts => toolModuleTexts(layout, code, unit.entries, uses, unit.sharedStubs === true && shared !== undefined, paths);
    // Everything but the code, from a scope with no body: with the code's hash, it fixes the text.
    const frame = texts(`\nexport const [${unit.entries.map((e) => e.exportName).join(', ')}] = `);
    const key = `${frame.text}\0${frame.dts ?? ''}\0${compiled.codeHash}`;
    const dts = frame.dts === undefined ? {} : { dts: frame.dts };
    if (compiled.code !== undefined) {
      modules.push({ module: unit.module, key, text: texts(compiled.code).text, ...dts });
    } else {
      // `unit.root` may be a getter that builds the root: read only if the module is made.
      const produce = async (): Promise<string> => texts((await compileUnits([{ root: unit.root, entries: unit.entries }], dialect, { workers: 0 }))[0]?.code as string).text;
      modules.push({ module: unit.module, key, produce, ...dts });
    }
    const specifier = layout === 'js' ? importedToolModule(unit.module) : `${paths.modulesDir}/${unit.module}.${paths.extension}`;
    index.push(`export { ${unit.entries.map((e) => e.exportName).join(', ')} } from ${JSON.stringify(specifier)};\n`);
  }
  let sharedModule: ModuleTexts | undefined;
  if (shared !== undefined && sharedCompiled !== undefined) {
    sharedCompiled.warnings.forEach((w) => warnings.add(w));
    sharedCompiled.helpers.forEach((h) => helpers.add(h));
    const uses = [...new Set(sharedCompiled.helpers)].sort();
    sharedModule = sharedModuleTexts(layout, sharedTableCode(sharedCompiled.code as string, shared, true).replace(/^\n/, ''), uses, paths.helpersFromShared as string);
  }
  const helperModule = helpersModuleTexts(layout, helperCode(helpers), [...helpers].sort());
  const typesExport = `export type { ValidationIssue, Validator } from ${JSON.stringify(paths.helpersFromIndex)};\n`;
  return { modules, ...(sharedModule === undefined ? {} : { shared: sharedModule }), helpers: helperModule, index: `${typesExport}${index.join('')}`, warnings: [...warnings] };
}

/** The cached forms: a unit's code itself (one-file validators) or only its hash (one module per tool). */
const MEMO_KIND = { code: 'tool-validators', hash: 'tool-validator-hashes' } as const;

/** A unit's compiled validators; `code` may be absent when only its hash was asked for and cached. */
interface UnitResult {
  code?: string;
  /** SHA-256 of `code`. */
  codeHash: string;
  helpers: string[];
  warnings: string[];
}

/** Thrown by the compute step of a lookup: the memo calls it only for what it does not know. */
const NOT_CACHED = Symbol('not cached');

/**
 * Every unit's compiled code: what the memo knows is taken from it, the rest is compiled in one
 * batch (compile-units.ts, in worker threads when there are many) and handed to the memo in tool
 * order. A memo computes on a miss, so a lookup whose compute throws NOT_CACHED finds out what is
 * missing without computing it. `keep`: what the memo keeps of a unit, its code or only its hash.
 */
async function compiledUnits(units: readonly ToolValidatorUnit[], dialect: Dialect, memo: Memo, options: CompileUnitsOptions, keep: 'code' | 'hash', share?: CodeShare): Promise<UnitResult[]> {
  const kind = MEMO_KIND[keep];
  // Kept by hash: the code also goes to the shared tier, under the kind that keeps code.
  const shareCode = keep === 'hash' ? share : undefined;
  const inputs = units.map((unit) =>
    unit.memoInput !== undefined
      ? JSON.stringify({ dialect, unit: unit.memoInput })
      : JSON.stringify({ dialect, root: unit.root, entries: unit.entries.map((e) => [e.exportName, e.ref]) }),
  );
  const results: (UnitResult | undefined)[] = inputs.map((input) => {
    try {
      let shared: UnitResult | undefined;
      const value = memo(kind, input, () => {
        // Not in the folder's cache: the code another output of the manifest compiled, if any.
        const code = shareCode?.recallShared(MEMO_KIND.code, input);
        if (code === undefined) throw NOT_CACHED;
        shared = decodeCompiled(code);
        return encodeCompiled(shared, keep);
      });
      return shared ?? decodeCompiled(value);
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
      const result: UnitResult = { ...value, codeHash: sha256Hex(value.code) };
      memo(kind, inputs[unitIndex] as string, () => encodeCompiled(result, keep));
      shareCode?.keepShared(MEMO_KIND.code, inputs[unitIndex] as string, encodeCompiled(result, 'code'));
      results[unitIndex] = result;
    });
  }
  return results as UnitResult[];
}

/**
 * A unit's cached form: one JSON line with its helpers, warnings and code hash, then its code as
 * it is (when kept). A warm run reads a thousand of them; JSON-parsing all that code to get it
 * back cost more than reading it this way.
 */
function encodeCompiled(result: UnitResult, keep: 'code' | 'hash'): string {
  const head = JSON.stringify({ helpers: result.helpers, warnings: result.warnings, codeHash: result.codeHash });
  return keep === 'code' ? `${head}\n${result.code as string}` : head;
}

function decodeCompiled(value: string): UnitResult {
  const newline = value.indexOf('\n');
  const head = JSON.parse(newline < 0 ? value : value.slice(0, newline)) as Omit<UnitResult, 'code'>;
  return { ...(newline < 0 ? {} : { code: value.slice(newline + 1) }), codeHash: head.codeHash, helpers: head.helpers, warnings: head.warnings };
}
