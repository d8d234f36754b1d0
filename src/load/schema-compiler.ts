/**
 * The compile half of the tool-schema check (manifest-checks.ts): a schema compiled with ajv for
 * what compiling finds: bad references, unknown formats, strict-mode notes. Its own module,
 * imported only when a run needs it: the meta-schema check and the compile-free walk come first
 * and need no ajv (schema-precheck.ts), so most runs never load it.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft07 from 'ajv';
import type { ErrorObject } from 'ajv';
import { addStandardFormats } from '../schema/add-formats.js';
import { EXTRA_FORMATS } from '../schema/formats.js';
import { forEachSchema } from './manifest-checks.js';
import { isDraft07 } from './manifest-refs.js';
import { closest } from './manifest-schema.js';
import { joinPointer } from './yaml-positions.js';

type JsonObject = { [key: string]: unknown };

export interface CompileResult {
  schemaErrors: ErrorObject[];
  failure?: { pointer: string; message: string; hint?: string };
  warnings: { pointer: string; message: string; hint?: string }[];
}

type Ajv = InstanceType<typeof Ajv2020.default> | InstanceType<typeof AjvDraft07.default>;

/** Where the shared ajv instances send strict-mode notes; set only while one compile runs. */
let noteSink: ((message: unknown) => void) | undefined;

export type Dialect = '2020-12' | 'draft-07';

/** Strict-mode notes are collected (see compileCheck), never thrown. */
const STRICT = {
  strict: 'log' as const,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  logger: { log: () => undefined, warn: (message: unknown): void => noteSink?.(message), error: (message: unknown): void => noteSink?.(message) },
};

/**
 * How a schema is judged against its meta-schema: every bad keyword, with a message. That ajv only
 * runs at build time: schema-precheck.ts uses its validators, precompiled (meta-validators-source.ts).
 */
export const META_OPTIONS = { ...STRICT, allErrors: true };

/**
 * How a schema is compiled for what compiling finds (references, formats, strict-mode notes). Its
 * code is thrown away, so it skips what only makes that code better (error messages, every error
 * rather than the first, ajv's optimizing passes), which roughly halves the check of a large
 * manifest. The meta-schema check came before (schema-precheck.ts).
 */
const COMPILE_OPTIONS = { ...STRICT, allErrors: false, messages: false, validateSchema: false, code: { optimize: false } };

/** An ajv of the dialect, with the formats and keywords of the generated validators. */
export function makeAjv(dialect: Dialect, options: object): Ajv {
  const ajv = dialect === 'draft-07' ? new AjvDraft07.default(options) : new Ajv2020.default(options);
  // As in src/emit/validators/ajv-instance.ts: every standard format, no formatMinimum/… keywords.
  addStandardFormats(ajv, COMPILE_ONLY_FORMATS);
  ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
  return ajv;
}

/** One compiling ajv per dialect for the whole process; compiled schemas are removed again. */
const compilers = new Map<Dialect, Ajv>();

function compilerFor(dialect: Dialect): Ajv {
  let compiler = compilers.get(dialect);
  if (!compiler) {
    compiler = makeAjv(dialect, COMPILE_OPTIONS);
    compilers.set(dialect, compiler);
  }
  return compiler;
}

/**
 * The keywords and formats the compiling ajv knows, sorted: what compilesCleanly needs to know.
 * Recorded at build time (schema/compiler-knowledge.json), so deciding needs no ajv.
 */
export function compilerKnowledge(dialect: Dialect): { keywords: string[]; formats: string[] } {
  const compiler = compilerFor(dialect);
  return {
    keywords: Object.keys(compiler.RULES.keywords).filter((name) => Boolean(compiler.RULES.keywords[name])).sort(),
    formats: Object.keys(compiler.formats).sort(),
  };
}

/**
 * Compiles with the same dialect and formats as the generated validators; collects ajv's
 * strict-mode notes as warnings. For a schema valid against its meta-schema that the compile-free
 * walk could not vouch for (schema-precheck.ts decides both first).
 */
export function compileCheck(schema: JsonObject): CompileResult {
  const warnings: { pointer: string; message: string; hint?: string }[] = [];
  noteSink = (message: unknown): void => {
    const text = String(message);
    const unknown = /unknown keyword: "([^"]*)"/.exec(text)?.[1];
    if (unknown === undefined) {
      warnings.push({ pointer: pointerIn(text), message: text.replace(/^strict mode: /, '') });
      return;
    }
    // Extension keywords (`x-…`) are annotations by design; `$anchor` is kept verbatim (manifest-refs.ts).
    if (unknown.startsWith('x-') || unknown === '$anchor') return;
    const near = closest(unknown, KEYWORDS);
    warnings.push({
      pointer: pointerOfKeyword(schema, unknown),
      message: `unknown keyword '${unknown}' is ignored`,
      hint: near ? `did you mean '${near}'?` : 'extension keywords should start with x-',
    });
  };
  const compiler = compilerFor(isDraft07(schema) ? 'draft-07' : '2020-12');
  try {
    return compileWith(compiler, schema, warnings);
  } finally {
    noteSink = undefined;
    compiler.removeSchema(schema);
  }
}

function compileWith(compiler: Ajv, schema: JsonObject, warnings: CompileResult['warnings']): CompileResult {
  try {
    compiler.compile(schema);
    return { schemaErrors: [], warnings };
  } catch (error) {
    if (error instanceof RangeError) return { schemaErrors: [], failure: { pointer: '', message: 'its references loop without ever describing a value' }, warnings };
    const message = (error as Error).message;
    const format = /unknown format "([^"]*)"/.exec(message)?.[1];
    if (format !== undefined) {
      const pointer = joinPointer(pointerIn(message), 'format');
      return { schemaErrors: [], failure: { pointer, message: `unknown format '${format}'`, hint: 'known formats are the standard ones (date, date-time, email, idn-email, uri, iri, uuid, …) and ajv-formats\' extras; use pattern for others' }, warnings };
    }
    return { schemaErrors: [], failure: { pointer: pointerIn(message), message }, warnings };
  }
}

/** ajv names places as `#/properties/x`, sometimes with a `"…"` around it; '' when it names none. */
function pointerIn(message: string): string {
  const match = /(?:at path|in schema at|schema at) "?#?(\/[^"\s]*)"?/.exec(message) ?? /"#(\/[^"]*)"/.exec(message);
  if (!match?.[1]) return '';
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return '';
  }
}

/** The first schema object that uses `keyword`, as a pointer to that keyword. */
function pointerOfKeyword(schema: JsonObject, keyword: string): string {
  let found: string | undefined;
  forEachSchema(schema, '', (sub, pointer) => {
    if (found === undefined && Object.hasOwn(sub, keyword)) found = joinPointer(pointer, keyword);
  });
  return found ?? '';
}

/** Schemas are only compiled here, never run: the extra formats need to be known, not checked. */
const COMPILE_ONLY_FORMATS = Object.fromEntries(Object.keys(EXTRA_FORMATS).map((format) => [format, () => true]));


const KEYWORDS = [
  'type', 'properties', 'required', 'additionalProperties', 'items', 'prefixItems', 'enum', 'const',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength',
  'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
  'patternProperties', 'propertyNames', 'dependentRequired', 'dependentSchemas', 'allOf', 'anyOf',
  'oneOf', 'not', 'if', 'then', 'else', 'contains', 'minContains', 'maxContains', 'description',
  'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'unevaluatedProperties',
  'unevaluatedItems', '$ref', '$defs', 'definitions', '$comment', 'contentMediaType', 'contentEncoding',
];

