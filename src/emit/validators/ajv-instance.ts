import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export type Dialect = 'draft-07' | '2020-12';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

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
 * - formats: ajv-formats' "full" set, without its non-standard formatMinimum/… keywords.
 */
export function createAjv(dialect: Dialect, options: { standalone: boolean; warnings?: string[] }): Ajv {
  const warnings = options.warnings;
  const opts: Options = {
    strict: false,
    allErrors: false,
    messages: true,
    ownProperties: true,
    strictNumbers: true,
    inlineRefs: false,
    validateFormats: true,
    logger: warnings
      ? { log: () => {}, warn: (...args: unknown[]) => warnings.push(args.map(String).join(' ')), error: () => {} }
      : false,
    ...(options.standalone ? { code: { source: true, esm: true, lines: true, optimize: true } } : {}),
  };
  const ajv = dialect === '2020-12' ? new Ajv2020(opts) : new Ajv(opts);
  addFormats(ajv, { mode: 'full', keywords: false });
  return ajv;
}
