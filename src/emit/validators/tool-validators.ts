import { escapeInvisible } from '../../printer/escape.js';
import { createAjv, type Dialect } from './ajv-instance.js';
import { helperCode } from './inline-helpers.js';
import { checkExportNames, compileValidatorCode, declarations, type CompiledValidatorCode, type EmittedValidators, type ValidatorEntry } from './index.js';

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
}

/** Same kind and input, same result; `UnitCache.memo` in the CLI, plain computation without it. */
export type Memo = (kind: string, input: string, compute: () => string) => string;

const computeOnly: Memo = (_kind, _input, compute) => compute();

export function emitToolValidators(units: readonly ToolValidatorUnit[], dialect: Dialect, typesModule: string, memo: Memo = computeOnly): EmittedValidators {
  const entries = units.flatMap((u) => u.entries);
  checkExportNames({ entries });
  const helpers = new Set<string>();
  const warnings = new Set<string>();
  const scopes: string[] = [];
  for (const unit of units) {
    const compiled = compiledUnit(unit, dialect, memo);
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
export function emitSplitToolValidators(
  units: readonly ToolModuleUnit[],
  dialect: Dialect,
  paths: { typesModule: string; helpersModule: string; modulesDir: string },
  memo: Memo = computeOnly,
): SplitValidators {
  const entries = units.flatMap((u) => u.entries);
  checkExportNames({ entries });
  const helpers = new Set<string>();
  const warnings = new Set<string>();
  const modules: SplitValidators['modules'] = [];
  const index: string[] = [];
  for (const unit of units) {
    const compiled = compiledUnit(unit, dialect, memo);
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

function compiledUnit(unit: ToolValidatorUnit, dialect: Dialect, memo: Memo): CompiledValidatorCode {
  const input = JSON.stringify({ dialect, root: unit.root, entries: unit.entries.map((e) => [e.exportName, e.ref]) });
  return JSON.parse(memo('tool-validators', input, () => JSON.stringify(compileUnit(unit, dialect)))) as CompiledValidatorCode;
}

/** `export const NAME = validateN;` as ajv prints its exports, one per line. */
const EXPORT_LINE = /^export const ([A-Za-z_$][\w$]*) = ([A-Za-z_$][\w$]*);\n?/gm;

/** One tool compiled, its exports turned into one destructuring `export const` around its own scope. */
function compileUnit(unit: ToolValidatorUnit, dialect: Dialect): CompiledValidatorCode {
  const compiled = compileValidatorCode({ root: unit.root, dialect, entries: unit.entries }, { checkSchema: (schema) => checkSchema(schema, dialect) });
  const exported = new Map<string, string>();
  const body = compiled.code.replace(EXPORT_LINE, (_line, name: string, local: string) => {
    exported.set(name, local);
    return '';
  });
  const names = unit.entries.map((e) => e.exportName);
  const missing = names.filter((n) => !exported.has(n));
  if (missing.length > 0) throw new Error(`emitToolValidators: ajv output lacks the export of ${missing.join(', ')}`);
  const code = `\nexport const [${names.join(', ')}] = (() => {\n${body.trim()}\nreturn [${names.map((n) => exported.get(n)).join(', ')}];\n})();\n`;
  return { code: escapeInvisible(code), helpers: compiled.helpers, warnings: compiled.warnings };
}

/** One ajv per dialect that only validates schemas: it compiles its meta-schema once per process. */
const checkers = new Map<Dialect, ReturnType<typeof createAjv>>();

/** What ajv's own `addSchema` would check, with a checker shared by every tool. */
function checkSchema(schema: object, dialect: Dialect): void {
  let checker = checkers.get(dialect);
  if (!checker) {
    checker = createAjv(dialect, { standalone: false });
    checkers.set(dialect, checker);
  }
  if (!checker.validateSchema(schema)) throw new Error(`schema is invalid: ${checker.errorsText(checker.errors)}`);
}
