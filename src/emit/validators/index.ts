import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { escapeInvisible, jsonValueExpression, stringLiteral } from '../../printer/escape.js';
import { createAjv, type Dialect, type ReusedAjv } from './ajv-instance.js';
import { helperCode, replaceRuntimeDependencies } from './inline-helpers.js';
import { planCompilation } from './compile-plan.js';
import { checkExportNames, declarations } from './declarations.js';

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

  const body = protectProtoKeys(removeUnusedSchemaLiterals(removeSourceUrls(raw.replace(/^"use strict";/, ''))));
  const { code, needed } = replaceRuntimeDependencies(body);
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

/**
 * Rewrites ajv's schema declarations (`const schema12 = {…};`). `edit` gets the name and the
 * literal and returns the text that replaces the declaration (its `;` and line end included), or
 * undefined to keep it. A declaration starts a statement; the same text inside a string literal
 * would have its quotes escaped, so it is never taken for one.
 */
function rewriteSchemaDeclarations(code: string, edit: (name: string, literal: string) => string | undefined): string {
  const declaration = /(^|[;\n])const (schema\d+) = (?=[[{])/g;
  let out = '';
  let from = 0;
  for (let m = declaration.exec(code); m !== null; m = declaration.exec(code)) {
    const start = m.index + m[0].length;
    let end = endOfJson(code, start);
    declaration.lastIndex = end;
    const replacement = edit(m[2] as string, code.slice(start, end));
    if (replacement === undefined) continue;
    if (code[end] === ';') end += code[end + 1] === '\n' ? 2 : 1;
    out += code.slice(from, m.index + (m[1] as string).length) + replacement;
    from = end;
  }
  return out + code.slice(from);
}

/**
 * ajv embeds schema values as object literals (`const schema12 = {…};`), and in a literal a
 * `"__proto__"` key sets the prototype instead of making a property. Such literals become
 * `JSON.parse("…")`, which keeps the key as data. Anything that does not parse is refused rather
 * than guessed at.
 */
function protectProtoKeys(code: string): string {
  if (!code.includes('"__proto__"')) return code;
  return rewriteSchemaDeclarations(code, (name, literal) => {
    if (!literal.includes('"__proto__"')) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(literal);
    } catch {
      throw new Error('emitValidators: cannot isolate a schema literal in ajv output');
    }
    return `const ${name} = ${jsonValueExpression(value)};\n`;
  });
}

/**
 * ajv declares a literal for every schema it compiled and refers to few of them. The rest are
 * built for nothing each time the module loads, which in the runtime's envelope validators showed
 * in a server's cold start. A literal whose name appears nowhere else in the code (string
 * contents included, so a doubt keeps it) is dropped.
 */
function removeUnusedSchemaLiterals(code: string): string {
  const uses = new Map<string, number>();
  for (const m of code.matchAll(/\bschema\d+\b/g)) uses.set(m[0], (uses.get(m[0]) ?? 0) + 1);
  return rewriteSchemaDeclarations(code, (name) => (uses.get(name) === 1 ? '' : undefined));
}

/** Index just past the JSON array or object that starts at `start`. */
function endOfJson(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; i < code.length && code[i] !== '"'; i++) if (code[i] === '\\') i++;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      if (--depth === 0) return i + 1;
    }
  }
  throw new Error('emitValidators: unbalanced schema literal in ajv output');
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
