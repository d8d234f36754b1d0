/**
 * Validation against schema/manifest.schema.json, with ajv errors turned into messages a person
 * can act on. Subschemas may carry two annotations for this: `x-expect` ("a valid tool name")
 * names what a value should be, `x-hint` says how to fix it.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Diagnostic } from './diagnostics.js';
import { MANIFEST_VALIDATOR_URL } from './manifest-validator-paths.js';
import { diagnosticAt, joinPointer } from './yaml-positions.js';
import type { SourceDocument } from './yaml-positions.js';

type JsonObject = { [key: string]: unknown };

let validator: ValidateFunction | undefined;

/** Precompiled (src/load/manifest-validator-source.ts): compiling the schema on each run would cost more than the load itself. */
function manifestValidator(): ValidateFunction {
  validator ??= createRequire(import.meta.url)(fileURLToPath(MANIFEST_VALIDATOR_URL)) as ValidateFunction;
  return validator;
}

/**
 * The smallest valid tool. A tool's verdict depends on that tool alone (`tools` is an array of
 * `$defs/tool`, with no rule across items), so a tool known valid can stand in as this one.
 */
const VALID_TOOL = { name: 'kept', inputSchema: { type: 'object' } };

/**
 * The manifest's problems against the manifest schema. `validTools`: indexes of tools known to
 * pass it (kept from the last run, bundled-tools-memo.ts, of a manifest that passed); they are
 * not looked at again unless something fails, and then the manifest is validated as written.
 */
export function validateAgainstManifestSchema(doc: SourceDocument, validTools: ReadonlySet<number> = new Set()): Diagnostic[] {
  const validate = manifestValidator();
  const value = doc.value as JsonObject;
  if (validTools.size > 0 && Array.isArray(value['tools'])) {
    const tools = value['tools'].map((tool: unknown, index) => (validTools.has(index) ? VALID_TOOL : tool));
    if (validate({ ...value, tools })) return [];
  }
  if (validate(doc.value)) return [];
  const errors = validate.errors ?? [];
  // A value of the wrong type makes every other complaint about it noise.
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const misspelt = misspeltRequired(errors);
  return errors
    // A bad key is reported by the pattern it breaks; ajv's `propertyNames` summary adds nothing.
    .filter((e) => e.keyword !== 'propertyNames')
    // An `if` that picked a `then` (upstream.auth's kinds) only says the `then` failed, which its own errors say.
    .filter((e) => e.keyword !== 'if')
    .filter((e) => e.keyword === 'type' || !wrongType.has(e.instancePath))
    // A misspelt required key is one mistake: the unknown key says it, with the name it meant.
    .filter((e) => e.keyword !== 'required' || !misspelt.has(joinPointer(e.instancePath, String((e.params as JsonObject).missingProperty))))
    .map((e) => describe(doc, e));
}

/** Pointers of required properties that are missing because a present key misspells them. */
function misspeltRequired(errors: readonly ErrorObject[]): Set<string> {
  const meant = new Set<string>();
  for (const error of errors) {
    if (error.keyword !== 'additionalProperties') continue;
    const near = suggestionFor(error);
    if (near !== undefined) meant.add(joinPointer(error.instancePath, near));
  }
  return meant;
}

/** The known key an unknown key was probably meant to be. */
function suggestionFor(error: ErrorObject): string | undefined {
  const parent = (error.parentSchema ?? {}) as JsonObject;
  const known = Object.keys((parent.properties as JsonObject | undefined) ?? {});
  return closest(String((error.params as JsonObject).additionalProperty), known);
}

function describe(doc: SourceDocument, error: ErrorObject): Diagnostic {
  const parent = (error.parentSchema ?? {}) as JsonObject;
  const hint = typeof parent['x-hint'] === 'string' ? parent['x-hint'] : undefined;
  const expect = typeof parent['x-expect'] === 'string' ? parent['x-expect'] : undefined;
  const at = error.instancePath;
  const params = error.params as JsonObject;
  switch (error.keyword) {
    case 'required': {
      const property = String(params.missingProperty);
      const propertySchema = (parent.properties as JsonObject | undefined)?.[property] as JsonObject | undefined;
      const description = typeof propertySchema?.description === 'string' ? propertySchema.description : undefined;
      return { ...diagnosticAt(doc, at, `missing required property '${property}'`, description), pointer: joinPointer(at, property) };
    }
    case 'additionalProperties': {
      const property = String(params.additionalProperty);
      const known = Object.keys((parent.properties as JsonObject | undefined) ?? {});
      const near = suggestionFor(error);
      const suggestion = near ? `did you mean '${near}'?` : `allowed here: ${known.join(', ')}`;
      return diagnosticAt(doc, joinPointer(at, property), `unknown property '${property}'`, suggestion, 'key');
    }
    case 'type':
      return diagnosticAt(doc, at, `expected ${article(String(params.type))}, got ${kindOf(error.data)}`, hint);
    case 'pattern':
    case 'enum':
      if (expect) return diagnosticAt(doc, at, `${show(error.data)} is not ${expect}`, hint);
      if (error.keyword === 'enum') {
        const allowed = (params.allowedValues as unknown[]).map(show).join(', ');
        return diagnosticAt(doc, at, `${show(error.data)} is not allowed here`, hint ?? `use one of ${allowed}`);
      }
      return diagnosticAt(doc, at, `${show(error.data)} does not match ${String(params.pattern)}`, hint);
    case 'const':
      return diagnosticAt(doc, at, `${show(error.data)} must be ${show(params.allowedValue)}`, hint);
    case 'minLength':
      return diagnosticAt(doc, at, params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters`, hint);
    case 'minItems':
      return diagnosticAt(doc, at, params.limit === 1 ? 'must list at least one item' : `must list at least ${String(params.limit)} items`, hint);
    case 'uniqueItems':
      return diagnosticAt(doc, joinPointer(at, Number(params.i)), `${show((error.data as unknown[])[Number(params.i)])} is listed twice`, hint);
    case 'maxProperties':
      return diagnosticAt(doc, at, `use at most ${String(params.limit)} of ${Object.keys((error.data as JsonObject | null) ?? {}).map(show).join(', ')}`, hint);
    case 'minimum':
    case 'maximum':
      return diagnosticAt(doc, at, `must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}`, hint);
    default:
      return diagnosticAt(doc, at, error.message ?? `fails '${error.keyword}'`, hint);
  }
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value) ?? String(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${article(typeof value)} (${show(value)})`;
}

function article(type: string): string {
  const words: Record<string, string> = { object: 'a mapping', array: 'a list', 'object,boolean': 'a schema (mapping or boolean)' };
  return words[type] ?? (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
}

/** The known name within edit distance 2 (or equal ignoring case), if any. */
export function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = candidate.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
