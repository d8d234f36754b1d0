/**
 * The rules for keywords that hold values rather than subschemas: each compares one keyword (or a
 * pair, like `enum`/`const`) of two schema nodes and says what the change does to the set of
 * accepted values. The walker in schema-compare.ts calls them and turns effects into severities.
 */
import { ANNOTATION_KEYWORDS as SCHEMA_ANNOTATIONS, DOCS_KEYWORDS } from '../schema/keywords.js';
import { canonicalJson, show, type JsonObject } from './json-values.js';
import type { Effect } from './schema-change.js';

export interface KeywordChange {
  kind: string;
  /** The keyword the pointer ends with. */
  keyword: string;
  message: string;
  effect: Effect;
  from?: unknown;
  to?: unknown;
}

/** Keywords that only document: a change to them alone is a `docs` change. */
export { DOCS_KEYWORDS };

/** Annotations beyond the docs ones, and the content keywords: they do not change which values are valid (a change is compatible both ways). */
export const ANNOTATION_KEYWORDS = new Set([
  ...[...SCHEMA_ANNOTATIONS].filter((keyword) => !DOCS_KEYWORDS.has(keyword)),
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
]);

/** Keywords that name or hold things rather than constrain the value here. */
export const IGNORED_KEYWORDS = new Set(['$schema', '$id', '$anchor', '$dynamicAnchor', '$vocabulary', '$defs', 'definitions']);

/** Raising a lower bound narrows; lowering an upper bound narrows. */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
export const BOUND_KEYWORDS = [...LOWER_BOUNDS, ...UPPER_BOUNDS];

const ALL_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** The JSON types a node admits; `number` includes `integer`. */
function typeSet(node: JsonObject): Set<string> {
  const declared = node['type'];
  const names = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared.filter((t): t is string => typeof t === 'string') : ALL_TYPES;
  const set = new Set(names);
  if (set.has('number')) set.add('integer');
  return set;
}

const subset = (a: Set<string>, b: Set<string>): boolean => [...a].every((x) => b.has(x));
const typeLabel = (node: JsonObject): string => (node['type'] === undefined ? 'any type' : Array.isArray(node['type']) ? node['type'].join('|') : String(node['type']));

export function compareType(oldNode: JsonObject, newNode: JsonObject): KeywordChange[] {
  const before = typeSet(oldNode);
  const after = typeSet(newNode);
  if (subset(before, after) && subset(after, before)) return [];
  const effect: Effect = subset(after, before) ? 'narrowed' : subset(before, after) ? 'widened' : 'changed';
  const verb = effect === 'changed' ? 'changed' : effect;
  return [{ kind: 'type', keyword: 'type', message: `type ${verb} from ${typeLabel(oldNode)} to ${typeLabel(newNode)}`, effect, from: oldNode['type'], to: newNode['type'] }];
}

/** `const: v` means `enum: [v]`; no keyword means any value. */
function allowedValues(node: JsonObject): { keyword: string; values: unknown[] } | undefined {
  if (Object.hasOwn(node, 'const')) return { keyword: 'const', values: [node['const']] };
  if (Array.isArray(node['enum'])) return { keyword: 'enum', values: node['enum'] };
  return undefined;
}

export function compareAllowedValues(oldNode: JsonObject, newNode: JsonObject): KeywordChange[] {
  const before = allowedValues(oldNode);
  const after = allowedValues(newNode);
  if (!before && !after) return [];
  if (!before) return [{ kind: after!.keyword, keyword: after!.keyword, message: `${after!.keyword} added: only ${listed(after!.values)} allowed`, effect: 'narrowed', to: newNode[after!.keyword] }];
  if (!after) return [{ kind: before.keyword, keyword: before.keyword, message: `${before.keyword} removed: any value allowed`, effect: 'widened', from: oldNode[before.keyword] }];
  const oldKeys = new Set(before.values.map(canonicalJson));
  const newKeys = new Set(after.values.map(canonicalJson));
  const removed = before.values.filter((v) => !newKeys.has(canonicalJson(v)));
  const added = after.values.filter((v) => !oldKeys.has(canonicalJson(v)));
  const from = oldNode[before.keyword];
  const to = newNode[after.keyword];
  const changes: KeywordChange[] = [];
  const plural = (values: unknown[]): string => (values.length === 1 ? 'value' : 'values');
  if (removed.length > 0) changes.push({ kind: 'enum', keyword: after.keyword, message: `${after.keyword} ${plural(removed)} ${listed(removed)} removed`, effect: 'narrowed', from, to });
  if (added.length > 0) changes.push({ kind: 'enum', keyword: after.keyword, message: `${after.keyword} ${plural(added)} ${listed(added)} added`, effect: 'widened', from, to });
  return changes;
}

function listed(values: unknown[]): string {
  return values.map(show).join(', ');
}

export function compareBound(keyword: string, oldNode: JsonObject, newNode: JsonObject): KeywordChange[] {
  const before = oldNode[keyword];
  const after = newNode[keyword];
  if (canonicalJson(before) === canonicalJson(after)) return [];
  const change = (message: string, effect: Effect): KeywordChange[] => [{ kind: keyword, keyword, message, effect, from: before, to: after }];
  if (before === undefined) return change(`${keyword} added (${show(after)})`, 'narrowed');
  if (after === undefined) return change(`${keyword} removed (was ${show(before)})`, 'widened');
  if (typeof before !== 'number' || typeof after !== 'number') return change(`${keyword} changed from ${show(before)} to ${show(after)}`, 'changed');
  const lower = LOWER_BOUNDS.includes(keyword);
  const raised = after > before;
  return change(`${keyword} ${raised ? 'raised' : 'lowered'} from ${before} to ${after}`, raised === lower ? 'narrowed' : 'widened');
}

export function compareMultipleOf(oldNode: JsonObject, newNode: JsonObject): KeywordChange[] {
  const before = oldNode['multipleOf'];
  const after = newNode['multipleOf'];
  if (canonicalJson(before) === canonicalJson(after)) return [];
  const change = (message: string, effect: Effect): KeywordChange[] => [{ kind: 'multipleOf', keyword: 'multipleOf', message, effect, from: before, to: after }];
  if (before === undefined) return change(`multipleOf added (${show(after)})`, 'narrowed');
  if (after === undefined) return change(`multipleOf removed (was ${show(before)})`, 'widened');
  const divides = (a: unknown, b: unknown): boolean => typeof a === 'number' && typeof b === 'number' && a !== 0 && Number.isInteger(b / a);
  // Multiples of 4 are multiples of 2: a new multipleOf the old one divides accepts fewer values.
  const effect: Effect = divides(before, after) ? 'narrowed' : divides(after, before) ? 'widened' : 'changed';
  return change(`multipleOf changed from ${show(before)} to ${show(after)}`, effect);
}

/** `pattern` and `format`: adding one narrows, dropping one widens, changing one does both. */
export function compareStringRule(keyword: 'pattern' | 'format', oldNode: JsonObject, newNode: JsonObject): KeywordChange[] {
  const before = oldNode[keyword];
  const after = newNode[keyword];
  if (canonicalJson(before) === canonicalJson(after)) return [];
  const change = (message: string, effect: Effect): KeywordChange[] => [{ kind: keyword, keyword, message, effect, from: before, to: after }];
  if (before === undefined) return change(`${keyword} added: ${show(after)}`, 'narrowed');
  if (after === undefined) return change(`${keyword} removed (was ${show(before)})`, 'widened');
  return change(`${keyword} changed from ${show(before)} to ${show(after)}`, 'changed');
}

export function compareUniqueItems(oldNode: JsonObject, newNode: JsonObject): KeywordChange[] {
  const before = oldNode['uniqueItems'] === true;
  const after = newNode['uniqueItems'] === true;
  if (before === after) return [];
  return [{ kind: 'uniqueItems', keyword: 'uniqueItems', message: after ? 'items must now be unique' : 'items no longer need to be unique', effect: after ? 'narrowed' : 'widened', from: oldNode['uniqueItems'], to: newNode['uniqueItems'] }];
}

/** A documentation keyword or annotation that changed; undefined when the values are equal. */
export function compareAnnotation(keyword: string, oldNode: JsonObject, newNode: JsonObject): KeywordChange | undefined {
  const before = oldNode[keyword];
  const after = newNode[keyword];
  if (canonicalJson(before) === canonicalJson(after)) return undefined;
  const docs = DOCS_KEYWORDS.has(keyword);
  const verb = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
  return { kind: docs ? 'docs' : 'annotation', keyword, message: `${keyword} ${verb}`, effect: docs ? 'docs' : 'neutral', from: before, to: after };
}
