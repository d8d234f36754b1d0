import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Handlebars from 'handlebars';
import { jsdoc, stringLiteral } from '../../printer/escape.js';
import { isSafeIdentifier, propertyKey } from '../../printer/names.js';

/**
 * The user-owned skeletons are Handlebars templates in `templates/` (shipped with the package).
 * Templates print nothing on their own: `noEscape` turns off HTML escaping, which means nothing
 * for TypeScript, and every value goes through one of the helpers below, each of which makes one
 * kind of token safe. `strict` makes a missing value an error instead of an empty string.
 */

/** The helpers a template may call with a value; anything else is rejected at compile time. */
export const VALUE_HELPERS = {
  /** A string literal. */
  'ts-string': (value: unknown): string => stringLiteral(requireString(value, 'ts-string')),
  /**
   * A string literal the way the generator's prettier options print it where that is plain (single
   * quotes around printable ASCII without `'` or `\`), else the same as `ts-string`: for files
   * written without prettier (tool handler stubs), whose other cases go through prettier anyway.
   */
  'ts-quote': (value: unknown): string => {
    const text = requireString(value, 'ts-quote');
    return isPlainText(text) ? `'${text}'` : stringLiteral(text);
  },
  /** An identifier; refuses anything that is not one (or is reserved). */
  'ts-ident': (value: unknown): string => {
    const name = requireString(value, 'ts-ident');
    if (!isSafeIdentifier(name)) throw new Error(`template: ${JSON.stringify(name)} is not a safe identifier`);
    return name;
  },
  /** A property name in an object literal or type (quoted or computed when needed). */
  'ts-key': (value: unknown): string => propertyKey(requireString(value, 'ts-key')),
  /** As `ts-key`, a quoted name in the quotes prettier prints where it is plain (as `ts-quote`): for files written without prettier. */
  'ts-quote-key': (value: unknown): string => quotedKey(requireString(value, 'ts-quote-key')),
  /** A `/** … *\/` block ending in a newline, or nothing for empty text; `indent="  "` indents it. */
  jsdoc: (value: unknown, options: Handlebars.HelperOptions): string => {
    const indent: unknown = options.hash['indent'] ?? '';
    if (typeof indent !== 'string' || !/^ *$/.test(indent)) throw new Error('template: jsdoc indent must be spaces');
    return jsdoc(requireString(value, 'jsdoc'), indent);
  },
} as const;

/** A property name as `ts-key` writes it, single-quoted where quoting a plain name (prettier's quotes). */
export function quotedKey(name: string): string {
  const key = propertyKey(name);
  return key !== name && !key.startsWith('[') && isPlainText(name) ? `'${name}'` : key;
}

/** Printable ASCII without a single quote or a backslash: quoted as is, it is prettier's own literal. */
export function isPlainText(text: string): boolean {
  return /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/.test(text);
}

function requireString(value: unknown, helper: string): string {
  if (typeof value !== 'string') throw new Error(`template: ${helper} needs a string, got ${typeof value}`);
  return value;
}

/** Where the templates live: `templates/` at the package root, from both `src/` and `dist/`. */
export const TEMPLATE_DIR = new URL('../../../templates/', import.meta.url);

let environment: typeof Handlebars | undefined;

function templates(): typeof Handlebars {
  if (environment) return environment;
  // Loaded on the first render: a warm run whose user files all exist renders none.
  const env = (createRequire(import.meta.url)('handlebars') as typeof Handlebars).create();
  for (const [name, helper] of Object.entries(VALUE_HELPERS)) env.registerHelper(name, helper);
  // Partials are the `*.hbs` files without a second extension (`resource-entry.hbs`).
  for (const file of readdirSync(TEMPLATE_DIR).sort()) {
    if (/^[a-z-]+\.hbs$/.test(file)) env.registerPartial(file.slice(0, -'.hbs'.length), compileTemplate(env, file));
  }
  environment = env;
  return env;
}

function compileTemplate(env: typeof Handlebars, file: string): Handlebars.TemplateDelegate {
  const source = readFileSync(new URL(file, TEMPLATE_DIR), 'utf8');
  return env.compile(source, {
    noEscape: true,
    strict: true,
    knownHelpersOnly: true,
    knownHelpers: Object.fromEntries(Object.keys(VALUE_HELPERS).map((name) => [name, true])),
  });
}

const compiled = new Map<string, Handlebars.TemplateDelegate>();

/** Renders `templates/<name>` (e.g. `tool-handler.ts.hbs` or the partial `resource-entry.hbs`). */
export function render(name: string, view: object): string {
  const env = templates();
  let template = compiled.get(name);
  if (!template) compiled.set(name, (template = compileTemplate(env, name)));
  return template(view);
}
