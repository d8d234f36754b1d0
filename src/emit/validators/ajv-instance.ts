import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ValueScope } from 'ajv/dist/compile/codegen/index.js';
import { addStandardFormats } from '../../schema/add-formats.js';
import { installLinearNames } from './ajv-linear-names.js';
import { inProcessFormats } from './inline-helpers.js';
import { LINEAR_PATTERN_MODULE } from './linear-pattern.js';
import { sharedKeyword } from './shared-defs.js';

export type Dialect = 'draft-07' | '2020-12';

// ajv's optimizing pass, same code in a third less compile time (ajv-linear-names.ts).
installLinearNames();

/**
 * The `code.regExp` engine of generated validators: ajv calls it to check each pattern while
 * compiling, and prints its `code` wherever the validator builds a pattern. inline-helpers.ts turns
 * that `require` into the linear-time matcher of linear-pattern.ts.
 */
const linearRegExp = Object.assign((pattern: string, flags: string) => new RegExp(pattern, flags), {
  code: `require(${JSON.stringify(LINEAR_PATTERN_MODULE)}).default`,
});

/**
 * The validation semantics every validator of ours has, whether generated or run in-process (the
 * differential tests compare the two, so both build their ajv here).
 *
 * - `strict: false`: the MCP schemas and real tool schemas use keywords and formats ajv's strict
 *   mode rejects; unknown ones are ignored, as JSON Schema says.
 * - `allErrors: false`: validators stop at the first problem. That is the fast path, and a server
 *   answering -32602 or a tool error needs one precise reason, not a list.
 * - `ownProperties: true`: `properties`/`required` look at own properties only, so a property
 *   named `constructor`, `toString` or `__proto__` is judged on the data, not on Object.prototype.
 * - `strictNumbers: true`: `number` and `integer` accept finite numbers only. JSON text such as
 *   `1e400` parses to Infinity, which JSON cannot carry back out (it serializes as `null`).
 * - generated (standalone) validators match `pattern`s in linear time (linear-pattern.ts); the
 *   in-process reference keeps RegExp, so the differential tests hold the two against each other.
 * - formats: ajv-formats' "full" set, without its non-standard formatMinimum/… keywords, plus the
 *   standard formats it lacks (iri, iri-reference, idn-email, idn-hostname: src/schema/formats.ts).
 */
/**
 * A standalone ajv's validators are printed (ajv's standalone module reads their source), never
 * run, yet ajv evaluates each one's code with `new Function` as it compiles: a fifth of a tool's
 * compile time. `code.process` hands `new Function` this instead; the source ajv keeps for
 * printing is the code it generated, untouched. Only for an ajv that does not check schemas
 * itself: that one runs the meta-schema validators it compiles.
 */
function sourceOnly(): string {
  return 'return function printedNotRun() { throw new Error("mcp-gen: a standalone validator is only printed"); }';
}

export function createAjv(dialect: Dialect, options: { standalone: boolean; warnings?: string[]; validateSchema?: false; sharedStubs?: true }): Ajv {
  const warnings = options.warnings;
  // With its own schema checks an ajv runs the meta-schema validators it compiles; without, none.
  const printOnly = options.validateSchema === false ? { process: sourceOnly } : {};
  const opts: Options = {
    strict: false,
    allErrors: false,
    messages: true,
    ownProperties: true,
    strictNumbers: true,
    inlineRefs: false,
    validateFormats: true,
    // Off only for a caller that has checked the schemas already: it saves compiling the meta-schema.
    ...(options.validateSchema === false ? { validateSchema: false } : {}),
    logger: warnings
      ? { log: () => {}, warn: (...args: unknown[]) => warnings.push(args.map(String).join(' ')), error: () => {} }
      : false,
    ...(options.standalone ? { code: { source: true, esm: true, lines: true, optimize: true, regExp: linearRegExp, ...printOnly } } : {}),
  };
  const ajv = dialect === '2020-12' ? new Ajv2020(opts) : new Ajv(opts);
  addStandardFormats(ajv, inProcessFormats());
  // Tools' validators only: the stubs of definitions compiled once for all tools (shared-defs.ts).
  // Anywhere else the keyword is unknown, and ignored as JSON Schema says.
  if (options.sharedStubs === true) ajv.addKeyword(sharedKeyword);
  return ajv;
}

/** A standalone ajv reused for one compilation after another, and the warnings of the current one. */
export interface ReusedAjv {
  ajv: Ajv;
  warnings: string[];
}

const reused = new Map<Dialect, ReusedAjv>();

/**
 * The dialect's standalone ajv, emptied, lent to `compile` for one compilation and emptied again
 * after it. Building an ajv (vocabularies, meta-schemas, formats) is a real share of compiling one
 * tool, so it is built once. A compilation leaves two things behind: the schemas it added and the
 * value scope that names what the code refers to (`validate0`, `schema12`, `formats3`…). Both go:
 * with a fresh scope names restart at 0, so the code is the same bytes a new ajv would print; and
 * emptied after use, the instance does not keep the last compilation alive (the shared definitions
 * of a large manifest: a thousand schemas and their code, tens of MB for the rest of the run).
 * Schema checks are the caller's (`validateSchema: false`), and so is synchronous use.
 */
export function withReusedStandaloneAjv<T>(dialect: Dialect, compile: (reused: ReusedAjv) => T): T {
  let entry = reused.get(dialect);
  if (!entry) {
    const warnings: string[] = [];
    entry = { ajv: createAjv(dialect, { standalone: true, warnings, validateSchema: false, sharedStubs: true }), warnings };
    reused.set(dialect, entry);
  }
  empty(entry);
  try {
    return compile(entry);
  } finally {
    empty(entry);
  }
}

function empty(entry: ReusedAjv): void {
  entry.ajv.removeSchema();
  // `scope` is declared readonly; ajv builds it once in its constructor with these very options.
  (entry.ajv as { scope: ValueScope }).scope = new ValueScope({ ...entry.ajv.scope.opts, scope: {} });
  entry.warnings.length = 0;
}
