import type { CompileJob, CompileReply } from './compile-worker.js';
import { escapeInvisible, stringLiteral } from '../../printer/escape.js';
import { isSchemaObject } from '../../schema/keywords.js';
import { createAjv, withReusedStandaloneAjv, type Dialect } from './ajv-instance.js';
import { compileValidatorCode, type CompiledValidatorCode } from './index.js';
import { SHARED_KEYWORD, SHARED_TABLE } from './shared-defs.js';
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
  const root = unit.root;
  // An entry whose whole schema is a shared root (shared-roots.ts) is a call, not ajv's code.
  const calls = new Map(unit.entries.flatMap((e) => sharedRootKey(root, e.ref)).map(({ entry, key }, i) => [entry, { local: `sharedRoot${i}`, key }]));
  const entries = unit.entries.filter((e) => !calls.has(e.ref));
  // A unit whose schemas were checked before (metaChecked) is not checked again.
  const check = unit.metaChecked ? () => {} : (schema: object) => checkSchema(schema, dialect);
  const compiled = entries.length === 0 ? { code: '', helpers: [], warnings: [] } : withReusedStandaloneAjv(dialect, (reused) => compileValidatorCode({ root, dialect, entries }, { checkSchema: check, reused }));
  const exported = new Map<string, string>();
  const body = compiled.code.replace(EXPORT_LINE, (_line, name: string, local: string) => {
    exported.set(name, local);
    return '';
  });
  for (const entry of unit.entries) {
    const call = calls.get(entry.ref);
    if (call !== undefined) exported.set(entry.exportName, call.local);
  }
  const names = unit.entries.map((e) => e.exportName);
  const missing = names.filter((n) => !exported.has(n));
  if (missing.length > 0) throw new Error(`emitToolValidators: ajv output lacks the export of ${missing.join(', ')}`);
  const callers = [...calls.values()].map(({ local, key }) => sharedRootCaller(local, key)).join('');
  const code = `\nexport const [${names.join(', ')}] = (() => {\n${`${body.trim()}\n${callers}`.trim()}\nreturn [${names.map((n) => exported.get(n)).join(', ')}];\n})();\n`;
  return { code: escapeInvisible(code), helpers: compiled.helpers, warnings: compiled.warnings };
}

/** The `$shared` key of the entry at `ref` (`#/$defs/<name>`) when its schema is only a stub calling it. */
function sharedRootKey(root: object, ref: string): { entry: string; key: string }[] {
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  const defs = m === null ? undefined : (root as Record<string, unknown>)[m[1] as string];
  const name = (m?.[2] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
  const schema = isSchemaObject(defs) && Object.hasOwn(defs, name) ? defs[name] : undefined;
  if (!isSchemaObject(schema) || Object.keys(schema).length !== 1 || typeof schema[SHARED_KEYWORD] !== 'string') return [];
  return [{ entry: ref, key: schema[SHARED_KEYWORD] }];
}

/**
 * What ajv compiles such a stub to, without its code: the shared validator called on the data,
 * its errors on failure and null on success left on the tool's own validator, as ajv does.
 */
function sharedRootCaller(local: string, key: string): string {
  const fn = `${SHARED_TABLE}[${stringLiteral(key)}]`;
  return `function ${local}(data) {\nconst valid = ${fn}(data);\n${local}.errors = valid ? null : ${fn}.errors;\nreturn valid;\n}\n`;
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
