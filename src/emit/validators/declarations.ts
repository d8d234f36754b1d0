import { jsdoc, stringLiteral } from '../../printer/escape.js';
import { isSafeIdentifier } from '../../printer/names.js';
import type { EmitValidatorsOptions } from './index.js';

// What a validator module declares and exports, apart from compiling it: needs no ajv, so a run
// whose validators all come from the unit cache never loads ajv.

/** Names ajv gives its own top-level bindings (`validate21`, `schema32`, `func2`, …). */
const AJV_INTERNAL_NAME = /^[a-z]+\d+$/;

export function checkExportNames(o: Pick<EmitValidatorsOptions, 'entries' | 'extraExports'>): void {
  const seen = new Set<string>();
  const check = (name: string): void => {
    if (!isSafeIdentifier(name) || name.startsWith('$') || AJV_INTERNAL_NAME.test(name)) {
      throw new Error(`emitValidators: ${JSON.stringify(name)} cannot be an export name`);
    }
    if (seen.has(name)) throw new Error(`emitValidators: export name ${name} used twice`);
    seen.add(name);
  };
  o.entries.forEach((e) => check(e.exportName));
  const validators = new Set(seen);
  for (const table of o.extraExports ?? []) {
    check(table.exportName);
    for (const [key, validator] of table.entries) {
      if (!validators.has(validator)) {
        throw new Error(`emitValidators: table ${table.exportName} maps ${JSON.stringify(key)} to unknown validator ${validator}`);
      }
    }
  }
}

/** The namespace the .d.ts imports `typesModule` as; entries' types are written `Types.Name`. */
const TYPES_NAMESPACE = 'Types';

/** `Name` or `Name["key"]…` (keys as JSON strings), as a type expression inside the namespace. */
export function typeExpression(typeName: string): string {
  const m = /^([A-Za-z_$][\w$]*)((?:\["(?:[^"\\\n\r\u2028\u2029]|\\.)*"\])*)$/.exec(typeName);
  if (!m) throw new Error(`emitValidators: ${JSON.stringify(typeName)} is not a type name`);
  const keys = [...(m[2] as string).matchAll(/\[("(?:[^"\\]|\\.)*")\]/g)].map((k) => JSON.parse(k[1] as string) as string);
  return `${TYPES_NAMESPACE}.${m[1] as string}${keys.map((k) => `[${stringLiteral(k)}]`).join('')}`;
}

/** The two types every validator module declares: `Validator<T>` is structurally the runtime's (src/runtime/api.ts). */
export const VALIDATOR_TYPES = [
  "/** One problem found by a validator (the shape of the runtime's ValidationIssue). */",
  'export interface ValidationIssue {',
  '  instancePath: string;',
  '  schemaPath?: string;',
  '  keyword: string;',
  '  params?: Record<string, unknown>;',
  '  message?: string;',
  '}',
  '',
  '/** A type guard that leaves its first problem on `errors` when it fails. */',
  'export interface Validator<T> {',
  '  (data: unknown): data is T;',
  '  errors?: ValidationIssue[] | null;',
  '}',
].join('\n');

/**
 * The first lines of every validator module written as TypeScript (the pragma alone on its line:
 * TypeScript before 5.x honours no text after it). The code below it is ajv's
 * machine-made JavaScript, which no user setting should have to accept (`noImplicitAny`,
 * `noUnusedLocals`, …); every export is annotated with its exact type, so importers still get
 * precise types.
 */
export const NOCHECK_LINE = '// @ts-nocheck\n// ajv standalone code, not type-checked; every export below carries its declared type.\n';

/** A declaration of `declarations()`, with its JSDoc: `export declare const NAME: TYPE;`, the type possibly over several lines. */
const DECLARATION = /(?:\/\*\*(?:[^*]|\*(?!\/))*\*\/\n)?export declare const ([A-Za-z_$][\w$]*): ([^]*?);\n(?=\n|$)/g;
/** An export of ajv's module (`export const NAME = `) or of a tool's scope (`export const [A, B] = `). */
const EXPORT_CONST = /^export const (\[[^\]\n]*\]|[A-Za-z_$][\w$]*) = /gm;

/**
 * A validator module (`js`) and its declarations (`dts`) as one TypeScript module: the
 * declarations' imports and types first, then the code with each export annotated with its
 * declared type (`export const [A, B]: [TypeOfA, TypeOfB] = …` for a tool's scope). Same inputs,
 * same bytes; an export without a declaration (or the reverse) is a bug and throws.
 */
export function typedValidatorModule(js: string, dts: string): string {
  const types = new Map<string, string>();
  const preamble = dts.replace(DECLARATION, (_text, name: string, type: string) => {
    types.set(name, type);
    return '';
  });
  const used = new Set<string>();
  const typeOf = (name: string): string => {
    const type = types.get(name);
    if (type === undefined || used.has(name)) throw new Error(`typedValidatorModule: no single declaration of ${name}`);
    used.add(name);
    return type;
  };
  const code = js.replace(EXPORT_CONST, (_text, binding: string) => {
    if (!binding.startsWith('[')) return `export const ${binding}: ${typeOf(binding)} = `;
    const names = binding.slice(1, -1).split(', ');
    return `export const ${binding}: [${names.map(typeOf).join(', ')}] = `;
  });
  if (used.size !== types.size) throw new Error(`typedValidatorModule: declared but not exported: ${[...types.keys()].filter((n) => !used.has(n)).join(', ')}`);
  return `${NOCHECK_LINE}${preamble.replace(/\n+$/, '\n')}\n${code}`;
}

/** The `.d.ts` of a validator module with these entries and tables. */
export function declarations(o: Pick<EmitValidatorsOptions, 'entries' | 'typesModule' | 'extraExports'>): string {
  const typeOf = new Map<string, string>();
  for (const entry of o.entries) {
    typeOf.set(entry.exportName, o.typesModule === undefined ? 'unknown' : typeExpression(entry.typeName));
  }
  const lines: string[] = [];
  // A namespace import: no type name can clash with the names declared here or shadow a global.
  if (o.typesModule !== undefined && o.entries.length > 0) {
    // Quoted as prettier would (single quotes, where nothing needs escaping): see inPrettierLayout.
    const module = /^[^'"\\\n\r\u2028\u2029]*$/.test(o.typesModule) ? `'${o.typesModule}'` : stringLiteral(o.typesModule);
    lines.push(`import type * as ${TYPES_NAMESPACE} from ${module};`, '');
  }
  lines.push(VALIDATOR_TYPES);
  for (const entry of o.entries) {
    lines.push('', `${jsdoc(`Validates \`${entry.ref}\`.`)}export declare const ${entry.exportName}: Validator<${typeOf.get(entry.exportName)}>;`);
  }
  for (const table of o.extraExports ?? []) {
    lines.push('', `export declare const ${table.exportName}: {`);
    for (const [key, validator] of table.entries) lines.push(`  readonly ${stringLiteral(key)}: Validator<${typeOf.get(validator)}>;`);
    lines.push('};');
  }
  return `${lines.join('\n')}\n`;
}
