import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { escapeInvisible, stringLiteral } from '../../printer/escape.js';
import { createAjv, type Dialect, type ReusedAjv } from './ajv-instance.js';
import { compactIssueLiterals } from './compact-issues.js';
import { helperCode, replaceRuntimeDependencies } from './inline-helpers.js';
import { planCompilation } from './compile-plan.js';
import { checkExportNames, declarations } from './declarations.js';
import { protectProtoKeys, pruneSchemaLiterals } from './schema-literals.js';

export type { Dialect } from './ajv-instance.js';
export { checkExportNames, declarations } from './declarations.js';

// ajv's standalone module is CommonJS; under NodeNext its default import is the module object.
const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default;

export interface ValidatorEntry {
  /** The JS export, e.g. `validateCallToolRequest`. */
  exportName: string;
  /** JSON pointer into the root, e.g. `#/$defs/CallToolRequest` (`#/definitions/…` works too). */
  ref: string;
  /**
   * The TS type the guard narrows to: an identifier exported by `typesModule`, optionally indexed
   * by string keys (`Tools["get-weather"]["input"]`). Ignored without `typesModule`.
   */
  typeName: string;
}

/** A frozen, prototype-free map from wire keys (e.g. methods) to validators of this file. */
export interface ValidatorTable {
  exportName: string;
  /** `[key, exportName of a validator]`, emitted in this order. */
  entries: ReadonlyArray<readonly [key: string, validator: string]>;
}

export interface EmitValidatorsOptions {
  /** The whole schema document; definitions under `$defs` (or `definitions`). */
  root: object;
  dialect: Dialect;
  entries: readonly ValidatorEntry[];
  /** e.g. `./types.js`; the .d.ts imports the entries' types from it. Without it guards narrow to `unknown`. */
  typesModule?: string;
  /** Lookup tables over the validators, e.g. `requestValidators` keyed by method. */
  extraExports?: readonly ValidatorTable[];
}

export interface EmittedValidators {
  /** Self-contained ES module: no imports, no `require`. */
  js: string;
  /** Declarations for `js`; its `Validator<T>` is structurally the runtime's (src/runtime/api.ts). */
  dts: string;
  /** What ajv warned about while compiling (e.g. an unknown format, which then always passes). */
  warnings: string[];
}

/**
 * Compiles each entry's schema into an ajv standalone validator and turns the result into a
 * dependency-free ES module plus its declarations. Only definitions the entries reach are emitted.
 * Same options in, same bytes out.
 */
export function emitValidators(o: EmitValidatorsOptions): EmittedValidators {
  checkExportNames(o);
  const compiled = compileValidatorCode(o);
  const tables = (o.extraExports ?? []).map(tableCode).join('');
  const js = escapeInvisible(helperCode(new Set(compiled.helpers)) + compiled.code + (tables === '' ? '' : `\n${TABLE_HELPER}\n${tables}`));
  return { js: js.endsWith('\n') ? js : `${js}\n`, dts: declarations(o), warnings: compiled.warnings };
}

/** ajv's code for some entries, before the helpers it calls are prepended. */
export interface CompiledValidatorCode {
  /** Functions, schema literals and `export const <exportName> = validateN;` lines. */
  code: string;
  /** Names of the helpers (inline-helpers.ts) the code calls. */
  helpers: string[];
  warnings: string[];
}

/**
 * Compiles the entries with a fresh ajv and cleans its output; the helpers it needs are named,
 * not included. `checkSchema`: checks each schema against its meta-schema instead of this ajv
 * (tool-validators.ts passes one shared checker, so a fresh ajv need not compile a meta-schema).
 */
export function compileValidatorCode(
  o: Pick<EmitValidatorsOptions, 'root' | 'dialect' | 'entries'>,
  options: { checkSchema?: (schema: object) => void; reused?: ReusedAjv } = {},
): CompiledValidatorCode {
  const plan = planCompilation(o.root);
  // A reused ajv (ajv-instance.ts) comes emptied, without schema checks of its own.
  const { ajv, warnings } = options.reused ?? newAjv(o.dialect, options.checkSchema !== undefined);
  for (const { key, schema } of plan.schemas) {
    options.checkSchema?.(schema);
    ajv.addSchema(schema, key);
  }

  const refs: Record<string, string> = {};
  for (const entry of o.entries) refs[entry.exportName] = plan.target(entry.ref);
  const raw = o.entries.length > 0 ? standaloneCode(ajv, refs) : '';

  const body = protectProtoKeys(pruneSchemaLiterals(removeSourceUrls(raw.replace(/^"use strict";/, ''))));
  const inlined = replaceRuntimeDependencies(body);
  const { code, needed } = compactIssueLiterals(inlined.code);
  inlined.needed.forEach((helper) => needed.add(helper));
  // ajv compiles some schemas twice and then warns twice.
  return { code, helpers: [...needed], warnings: [...new Set(warnings)] };
}

function newAjv(dialect: Dialect, checkedByCaller: boolean): ReusedAjv {
  const warnings: string[] = [];
  return { ajv: createAjv(dialect, { standalone: true, warnings, ...(checkedByCaller ? { validateSchema: false } : {}) }), warnings };
}

/** ajv's `/*# sourceURL="<$id>" *\/` comment, the id printed as a JSON string. */
const SOURCE_URL_COMMENT = /\/\*# sourceURL="(?:[^"\\]|\\.)*" \*\//g;

/**
 * ajv marks each function compiled from a schema with an `$id` by a comment holding that id as a
 * JSON string, which does not escape `*\/`: an `$id` like `x*\/code();/*` would close the comment
 * and run as code. The comments only serve `eval`ed code, so they all go.
 */
function removeSourceUrls(code: string): string {
  const cleaned = code.replace(SOURCE_URL_COMMENT, '');
  if (cleaned.includes('/*# sourceURL="')) throw new Error('emitValidators: a sourceURL comment in ajv output could not be removed');
  return cleaned;
}

/** Builds a table with no prototype: a key like `__proto__` or `toString` is just a key. */
const TABLE_HELPER = `function $table(entries) {
  const table = Object.create(null);
  for (const [key, value] of entries) table[key] = value;
  return Object.freeze(table);
}`;

function tableCode(table: ValidatorTable): string {
  const rows = table.entries.map(([key, validator]) => `\n  [${stringLiteral(key)}, ${validator}],`).join('');
  return `export const ${table.exportName} = $table([${rows}\n]);\n`;
}
