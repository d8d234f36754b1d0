import type { CompileJob, CompileReply } from './compile-worker.js';
import { escapeInvisible } from '../../printer/escape.js';
import { createAjv, reusedStandaloneAjv, type Dialect } from './ajv-instance.js';
import { compileValidatorCode, type CompiledValidatorCode } from './index.js';
import type { ToolValidatorUnit } from './tool-validators.js';

/**
 * One tool's validators compiled on their own: the step tool-validators.ts caches per tool and
 * compile-units.ts runs in worker threads. Pure: the same unit and dialect give the same code in
 * any thread and in any order.
 */

/** `export const NAME = validateN;` as ajv prints its exports, one per line. */
const EXPORT_LINE = /^export const ([A-Za-z_$][\w$]*) = ([A-Za-z_$][\w$]*);\n?/gm;

/** One tool compiled, its exports turned into one destructuring `export const` around its own scope. */
export function compileUnit(unit: ToolValidatorUnit, dialect: Dialect): CompiledValidatorCode {
  // A unit whose schemas were checked before (metaChecked) is not checked again.
  const check = unit.metaChecked ? () => {} : (schema: object) => checkSchema(schema, dialect);
  const compiled = compileValidatorCode({ root: unit.root, dialect, entries: unit.entries }, { checkSchema: check, reused: reusedStandaloneAjv(dialect) });
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

/** One ajv per dialect that only validates schemas: it compiles its meta-schema once per thread. */
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

/** A worker's job compiled in this thread: the results in the job's order, or the first error's message (the text a run in-process throws). */
export function compileJob(job: CompileJob): CompileReply {
  try {
    return { results: job.units.map((unit) => compileUnit(unit, job.dialect)) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
