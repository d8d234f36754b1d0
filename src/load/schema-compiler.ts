/**
 * The compile half of the tool-schema check (manifest-checks.ts): each schema against its
 * dialect's meta-schema, then compiled with ajv (unless compile-free.ts can vouch for it) for what
 * compiling finds: bad references, unknown formats, strict-mode notes. Its own module, imported
 * only when a run needs it: a warm run whose checks all come from the unit cache never loads ajv.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft07 from 'ajv';
import type { ErrorObject } from 'ajv';
import { addStandardFormats } from '../schema/add-formats.js';
import { EXTRA_FORMATS } from '../schema/formats.js';
import { compilesCleanly, type CompilerKnowledge } from './compile-free.js';
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

/**
 * Two ajv per dialect for the whole process: building one compiles its meta-schema, which costs
 * far more than checking a tool schema. `meta` judges a schema against its meta-schema and reports
 * every bad keyword with a message. `compile` only compiles, for what compiling finds (references,
 * formats, strict-mode notes); its code is thrown away, so it skips what only makes that code
 * better (error messages, every error rather than the first, ajv's optimizing passes), which
 * roughly halves the check of a large manifest. Compiled schemas are removed again.
 */
interface Checker {
  meta: Ajv;
  compile: Ajv;
  /** The keywords and formats `compile` knows (for compilesCleanly). */
  knows: CompilerKnowledge;
}
const checkers = new Map<'2020-12' | 'draft-07', Checker>();

function checkerFor(schema: JsonObject): Checker {
  const dialect = isDraft07(schema) ? 'draft-07' : '2020-12';
  let checker = checkers.get(dialect);
  if (!checker) {
    const forward = (message: unknown): void => noteSink?.(message);
    const strict = {
      strict: 'log' as const,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      logger: { log: () => undefined, warn: forward, error: forward },
    };
    const make = (options: object): Ajv => {
      const ajv = dialect === 'draft-07' ? new AjvDraft07.default(options) : new Ajv2020.default(options);
      // As in src/emit/validators/ajv-instance.ts: every standard format, no formatMinimum/… keywords.
      addStandardFormats(ajv, COMPILE_ONLY_FORMATS);
      ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
      return ajv;
    };
    const compile = make({ ...strict, allErrors: false, messages: false, validateSchema: false, code: { optimize: false } });
    checker = {
      meta: make({ ...strict, allErrors: true }),
      compile,
      knows: {
        keyword: (name) => Boolean(compile.RULES.keywords[name]),
        format: (name) => Object.hasOwn(compile.formats, name),
      },
    };
    checkers.set(dialect, checker);
  }
  return checker;
}

/** Compiles with the same dialect and formats as the generated validators; collects ajv's strict-mode notes as warnings. */
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
  const checker = checkerFor(schema);
  try {
    return compileWith(checker, schema, warnings);
  } finally {
    noteSink = undefined;
    checker.compile.removeSchema(schema);
  }
}

function compileWith(checker: Checker, schema: JsonObject, warnings: CompileResult['warnings']): CompileResult {
  if (!checker.meta.validateSchema(schema)) return { schemaErrors: checker.meta.errors ?? [], warnings };
  // Compiling is the expensive part; for most schemas a walk can tell it would find nothing.
  if (compilesCleanly(schema, checker.knows)) return { schemaErrors: [], warnings };
  try {
    checker.compile.compile(schema);
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

