/**
 * Compares two JSON Schemas node by node and lists what changed, each change classified for a peer
 * that sends values of the schema (`input`) and one that receives them (`output`); see
 * schema-change.ts. `$ref`s are followed on both sides (schema-refs.ts), so the pointers follow the
 * path a value takes, not where a definition is written. Each (old node, new node) pair is compared
 * once, so recursive schemas terminate.
 */
import { isSubschema, subschemaSlot } from '../schema/keywords.js';
import { canonicalJson, childPointer, isObject, show, sortedUnion, type JsonObject } from './json-values.js';
import { alters, EFFECT_SEVERITIES, flipped, type Effect, type SchemaChange } from './schema-change.js';
import {
  ANNOTATION_KEYWORDS,
  BOUND_KEYWORDS,
  compareAllowedValues,
  compareAnnotation,
  compareBound,
  compareMultipleOf,
  compareStringRule,
  compareType,
  compareUniqueItems,
  DOCS_KEYWORDS,
  IGNORED_KEYWORDS,
  type KeywordChange,
} from './schema-keyword-rules.js';
import { RefResolver, type SchemaDocument } from './schema-refs.js';

export type { SchemaDocument } from './schema-refs.js';

/** Nesting compared before giving up on a branch (the loaders bound real schemas well below this). */
const MAX_DEPTH = 200;

/** Keywords with a rule above (values, then subschemas); the others are docs, annotations, ignored or unmodelled. */
const RULED_KEYWORDS = new Set([
  ...['type', 'enum', 'const', 'multipleOf', 'pattern', 'format', 'uniqueItems', '$ref', 'x-mcp-header', ...BOUND_KEYWORDS],
  ...['properties', 'required', 'additionalProperties', 'unevaluatedProperties', 'items', 'additionalItems', 'unevaluatedItems', 'propertyNames'],
  ...['contains', 'not', 'patternProperties', 'dependentSchemas', 'prefixItems', 'allOf', 'anyOf', 'oneOf'],
]);

/** Validation keywords without a rule of their own: any change to them counts as breaking both ways. */
const UNMODELLED_VALIDATION = new Set(['if', 'then', 'else', 'dependentRequired', 'dependencies', '$dynamicRef', '$recursiveRef']);

/** `true` as a node: an empty schema, shared so pairs with it can be remembered. */
const ANYTHING: JsonObject = Object.freeze({}) as JsonObject;

export interface CompareOptions {
  /** How messages name a property: `input property`, `output field`, `property`. */
  noun: string;
}

/** The changes from `oldSchema` to `newSchema`, pointers relative to their roots. */
export function compareSchemas(oldSchema: unknown, newSchema: unknown, oldDoc: SchemaDocument, newDoc: SchemaDocument, options: CompareOptions): SchemaChange[] {
  const comparison = new SchemaComparison(new RefResolver(oldDoc), new RefResolver(newDoc), options.noun);
  return comparison.run(oldSchema, newSchema);
}

/** One walk: where changes go, which pairs were seen, and whether we are under an odd number of `not`s. */
interface Walk {
  sink: SchemaChange[];
  seen: Map<JsonObject, Map<JsonObject, Set<boolean>>>;
  flip: boolean;
}

class SchemaComparison {
  /** Pair → "no change that can break either way"; set to true while computed, so cycles assume it. */
  private readonly equivalence = new Map<JsonObject | boolean, Map<JsonObject | boolean, boolean>>();

  constructor(
    private readonly oldRefs: RefResolver,
    private readonly newRefs: RefResolver,
    private readonly noun: string,
  ) {}

  run(oldSchema: unknown, newSchema: unknown): SchemaChange[] {
    const walk: Walk = { sink: [], seen: new Map(), flip: false };
    this.node(oldSchema, newSchema, '', walk, 0);
    return walk.sink;
  }

  private node(oldValue: unknown, newValue: unknown, at: string, walk: Walk, depth: number): void {
    const [before, after] = this.resolvePair(oldValue, newValue);
    if (before === false || after === false) {
      if (before === after) return;
      if (before === false) this.emit(walk, at, { kind: 'schema', keyword: '', message: 'now accepts values (was false)', effect: 'widened' });
      else this.emit(walk, at, { kind: 'schema', keyword: '', message: 'no longer accepts any value (now false)', effect: 'narrowed' });
      return;
    }
    const oldNode = before === true ? ANYTHING : before;
    const newNode = after === true ? ANYTHING : after;
    if (!firstVisit(walk, oldNode, newNode)) return;
    if (depth > MAX_DEPTH) {
      if (canonicalJson(oldNode) !== canonicalJson(newNode)) this.emit(walk, at, { kind: 'depth', keyword: '', message: `nested more than ${MAX_DEPTH} levels deep: not compared further`, effect: 'changed' });
      return;
    }
    this.keywords(oldNode, newNode, at, walk, depth);
  }

  /** Both nodes with refs followed; opaque refs stay only when both sides name the same one. */
  private resolvePair(oldValue: unknown, newValue: unknown): [JsonObject | boolean, JsonObject | boolean] {
    const before = this.oldRefs.resolve(asSchema(oldValue));
    const after = this.newRefs.resolve(asSchema(newValue));
    if (refOf(before) === refOf(after)) return [before, after];
    return [this.oldRefs.resolve(asSchema(oldValue), true), this.newRefs.resolve(asSchema(newValue), true)];
  }

  private keywords(o: JsonObject, n: JsonObject, at: string, walk: Walk, depth: number): void {
    const scalar: KeywordChange[] = [
      ...compareType(o, n),
      ...compareAllowedValues(o, n),
      ...BOUND_KEYWORDS.flatMap((k) => compareBound(k, o, n)),
      ...compareMultipleOf(o, n),
      ...compareStringRule('pattern', o, n),
      ...compareStringRule('format', o, n),
      ...compareUniqueItems(o, n),
    ];
    for (const change of scalar) this.emit(walk, at, change);
    // A $ref still here was not followed (remote, opaque or dangling): compare its text.
    if (canonicalJson(o['$ref']) !== canonicalJson(n['$ref'])) {
      this.emit(walk, at, { kind: 'ref', keyword: '$ref', message: `$ref changed from ${show(o['$ref'])} to ${show(n['$ref'])}`, effect: 'changed', from: o['$ref'], to: n['$ref'] });
    }
    this.header(o, n, at, walk);

    const next = depth + 1;
    this.properties(o, n, at, walk, next);
    for (const keyword of ['additionalProperties', 'unevaluatedProperties']) this.openness(keyword, o, n, at, walk, next);
    for (const keyword of ['items', 'additionalItems', 'unevaluatedItems', 'propertyNames']) {
      if (o[keyword] !== undefined || n[keyword] !== undefined) this.node(o[keyword] ?? true, n[keyword] ?? true, childPointer(at, keyword), walk, next);
    }
    this.optional('contains', o, n, at, walk, next, false);
    this.optional('not', o, n, at, walk, next, true);
    for (const keyword of ['patternProperties', 'dependentSchemas']) this.schemaMap(keyword, o, n, at, walk, next);
    this.prefixItems(o, n, at, walk, next);
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) this.combinator(keyword, o, n, at, walk, next);

    for (const keyword of sortedUnion(Object.keys(o), Object.keys(n))) {
      if (RULED_KEYWORDS.has(keyword) || IGNORED_KEYWORDS.has(keyword)) continue;
      if (DOCS_KEYWORDS.has(keyword) || ANNOTATION_KEYWORDS.has(keyword)) {
        const change = compareAnnotation(keyword, o, n);
        if (change) this.emit(walk, at, change);
        continue;
      }
      if (this.sameKeywordValue(keyword, o[keyword], n[keyword], depth)) continue;
      const verb = o[keyword] === undefined ? 'added' : n[keyword] === undefined ? 'removed' : 'changed';
      const validation = UNMODELLED_VALIDATION.has(keyword);
      this.emit(walk, at, {
        kind: validation ? 'keyword' : 'annotation',
        keyword,
        message: validation ? `${keyword} ${verb} (mcp-gen cannot tell whether this widens or narrows)` : `${keyword} ${verb}`,
        effect: validation ? 'changed' : 'neutral',
        from: o[keyword],
        to: n[keyword],
      });
    }
  }

  /** `x-mcp-header` mirrors an input property into an HTTP header: any change breaks clients that send it. */
  private header(o: JsonObject, n: JsonObject, at: string, walk: Walk): void {
    const before = o['x-mcp-header'];
    const after = n['x-mcp-header'];
    if (canonicalJson(before) === canonicalJson(after)) return;
    const message =
      before === undefined ? `x-mcp-header added (${show(after)})` : after === undefined ? `x-mcp-header removed (was ${show(before)})` : `x-mcp-header renamed from ${show(before)} to ${show(after)}`;
    this.push(walk, { kind: 'x-mcp-header', pointer: childPointer(at, 'x-mcp-header'), message, input: 'breaking', output: 'compatible', from: before, to: after });
  }

  private properties(o: JsonObject, n: JsonObject, at: string, walk: Walk, depth: number): void {
    const oldProps = isObject(o['properties']) ? o['properties'] : {};
    const newProps = isObject(n['properties']) ? n['properties'] : {};
    const oldRequired = requiredNames(o);
    const newRequired = requiredNames(n);
    const noun = this.noun;
    const renames = this.renamedProperties(oldProps, newProps, depth);
    for (const name of sortedUnion(Object.keys(oldProps), Object.keys(newProps))) {
      const here = childPointer(at, 'properties', name);
      const inOld = Object.hasOwn(oldProps, name);
      const inNew = Object.hasOwn(newProps, name);
      if (inOld && inNew) {
        this.node(oldProps[name], newProps[name], here, walk, depth);
        if (!oldRequired.has(name) && newRequired.has(name)) this.emitAt(walk, here, 'required', `${noun} ${show(name)} made required`, 'narrowed');
        if (oldRequired.has(name) && !newRequired.has(name)) this.emitAt(walk, here, 'required', `${noun} ${show(name)} made optional`, 'widened');
      } else if (inNew) {
        const required = newRequired.has(name);
        const from = renames.from.get(name);
        const oldClosed = closed(o);
        const change: SchemaChange = {
          kind: 'property-added',
          pointer: here,
          message: `${noun} ${show(name)} added (${required ? 'required' : 'optional'})${from !== undefined ? `, probably renamed from ${show(from)}` : ''}`,
          input: required ? 'breaking' : 'compatible',
          output: oldClosed ? 'breaking' : 'compatible',
        };
        // A receiver checking against the old, closed schema refuses a property it did not know.
        if (oldClosed) change.why = { output: 'the old schema allowed no other properties' };
        if (from !== undefined) change.rename = { from, to: name };
        this.push(walk, change);
      } else {
        // Receivers read it; senders that still send it are refused only by a closed object.
        const to = renames.to.get(name);
        const change: SchemaChange = {
          kind: 'property-removed',
          pointer: here,
          message: `${noun} ${show(name)} removed${to !== undefined ? `, probably renamed to ${show(to)}` : ''}`,
          input: closed(n) ? 'breaking' : 'compatible',
          output: 'breaking',
        };
        if (to !== undefined) change.rename = { from: name, to };
        this.push(walk, change);
      }
    }
    for (const name of sortedUnion(oldRequired, newRequired)) {
      if (Object.hasOwn(oldProps, name) || Object.hasOwn(newProps, name)) continue;
      const here = childPointer(at, 'required');
      if (!oldRequired.has(name)) this.emitAt(walk, here, 'required', `${show(name)} now required`, 'narrowed');
      else if (!newRequired.has(name)) this.emitAt(walk, here, 'required', `${show(name)} no longer required`, 'widened');
    }
  }

  /**
   * Removed and added properties that are probably one renamed: their schemas differ in nothing
   * that can break either way, and each is the other's only such match (two look-alike candidates
   * are no evidence, so they are left as plain removals and additions).
   */
  private renamedProperties(oldProps: JsonObject, newProps: JsonObject, depth: number): { from: Map<string, string>; to: Map<string, string> } {
    const removed = Object.keys(oldProps).filter((k) => !Object.hasOwn(newProps, k)).sort();
    const added = Object.keys(newProps).filter((k) => !Object.hasOwn(oldProps, k)).sort();
    const from = new Map<string, string>();
    const to = new Map<string, string>();
    if (removed.length === 0 || added.length === 0) return { from, to };
    const alike = new Map(removed.map((r) => [r, added.filter((a) => this.equivalent(oldProps[r], newProps[a], depth))]));
    for (const [r, matches] of alike) {
      const [a] = matches;
      if (matches.length !== 1 || a === undefined) continue;
      if (removed.filter((other) => alike.get(other)?.includes(a)).length !== 1) continue;
      from.set(a, r);
      to.set(r, a);
    }
    return { from, to };
  }

  /** `additionalProperties` / `unevaluatedProperties`: closing the object narrows it, opening widens. */
  private openness(keyword: string, o: JsonObject, n: JsonObject, at: string, walk: Walk, depth: number): void {
    const before = o[keyword];
    const after = n[keyword];
    if (before === undefined && after === undefined) return;
    const here = childPointer(at, keyword);
    if (before !== false && after === false) {
      this.emitAt(walk, here, keyword, `${keyword} closed: no other properties allowed`, 'narrowed', { from: before ?? true, to: after });
    } else if (before === false && after !== false) {
      this.emitAt(walk, here, keyword, `${keyword} opened: other properties allowed`, 'widened', { from: before, to: after ?? true });
    } else {
      this.node(before ?? true, after ?? true, here, walk, depth);
    }
  }

  /** A keyword whose absence means "no constraint" (`contains`, `not`): adding it narrows. */
  private optional(keyword: string, o: JsonObject, n: JsonObject, at: string, walk: Walk, depth: number, negates: boolean): void {
    const before = o[keyword];
    const after = n[keyword];
    const here = childPointer(at, keyword);
    if (before === undefined && after === undefined) return;
    if (before === undefined) this.emitAt(walk, here, keyword, `${keyword} added`, 'narrowed', { to: after });
    else if (after === undefined) this.emitAt(walk, here, keyword, `${keyword} removed`, 'widened', { from: before });
    else this.node(before, after, here, { ...walk, flip: walk.flip !== negates }, depth);
  }

  /** `patternProperties`, `dependentSchemas`: an added entry constrains more values. */
  private schemaMap(keyword: string, o: JsonObject, n: JsonObject, at: string, walk: Walk, depth: number): void {
    const before = isObject(o[keyword]) ? o[keyword] : {};
    const after = isObject(n[keyword]) ? n[keyword] : {};
    for (const name of sortedUnion(Object.keys(before), Object.keys(after))) {
      const here = childPointer(at, keyword, name);
      if (!Object.hasOwn(before, name)) this.emitAt(walk, here, keyword, `${keyword} entry ${show(name)} added`, 'narrowed');
      else if (!Object.hasOwn(after, name)) this.emitAt(walk, here, keyword, `${keyword} entry ${show(name)} removed`, 'widened');
      else this.node(before[name], after[name], here, walk, depth);
    }
  }

  private prefixItems(o: JsonObject, n: JsonObject, at: string, walk: Walk, depth: number): void {
    const before = Array.isArray(o['prefixItems']) ? o['prefixItems'] : [];
    const after = Array.isArray(n['prefixItems']) ? n['prefixItems'] : [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      const here = childPointer(at, 'prefixItems', i);
      if (i >= before.length) this.emitAt(walk, here, 'prefixItems', `tuple position ${i} constrained`, 'narrowed');
      else if (i >= after.length) this.emitAt(walk, here, 'prefixItems', `tuple position ${i} no longer constrained`, 'widened');
      else this.node(before[i], after[i], here, walk, depth);
    }
  }

  /**
   * `anyOf`/`oneOf` (a new branch widens) and `allOf` (a new member narrows). Branches are matched
   * by meaning first, so reordering is no change; what is left is paired by position when both
   * sides have as many, else reported as added and removed.
   */
  private combinator(keyword: string, o: JsonObject, n: JsonObject, at: string, walk: Walk, depth: number): void {
    const before = o[keyword];
    const after = n[keyword];
    if (!Array.isArray(before) && !Array.isArray(after)) return;
    const here = childPointer(at, keyword);
    if (!Array.isArray(before)) return this.emitAt(walk, here, keyword, `${keyword} added`, 'narrowed', { to: after });
    if (!Array.isArray(after)) return this.emitAt(walk, here, keyword, `${keyword} removed`, 'widened', { from: before });
    const pairs: [number, number][] = [];
    const taken = new Set<number>();
    const leftOld: number[] = [];
    before.forEach((branch, i) => {
      const j = after.findIndex((candidate, k) => !taken.has(k) && this.equivalent(branch, candidate, depth));
      if (j === -1) return leftOld.push(i);
      taken.add(j);
      pairs.push([i, j]);
    });
    const leftNew = after.map((_, j) => j).filter((j) => !taken.has(j));
    if (leftOld.length === leftNew.length) leftOld.forEach((i, k) => pairs.push([i, leftNew[k]!]));
    else {
      const more: Effect = keyword === 'allOf' ? 'narrowed' : 'widened';
      const fewer: Effect = keyword === 'allOf' ? 'widened' : 'narrowed';
      for (const i of leftOld) this.emitAt(walk, childPointer(here, i), keyword, `${keyword} member ${i} removed: ${show(before[i])}`, fewer, { from: before[i] });
      for (const j of leftNew) this.emitAt(walk, childPointer(here, j), keyword, `${keyword} member ${j} added: ${show(after[j])}`, more, { to: after[j] });
    }
    for (const [i, j] of pairs.sort((a, b) => a[1] - b[1])) this.node(before[i], after[j], childPointer(here, j), walk, depth);
  }

  /**
   * Whether two subschemas differ in nothing that can break either way (cycles count as equal).
   * `depth` carries on from the caller's, so nesting stays bounded across these side walks.
   */
  private equivalent(a: unknown, b: unknown, depth: number): boolean {
    const [key1, key2] = this.resolvePair(a, b);
    let row = this.equivalence.get(key1);
    if (!row) this.equivalence.set(key1, (row = new Map()));
    const known = row.get(key2);
    if (known !== undefined) return known;
    row.set(key2, true);
    const walk: Walk = { sink: [], seen: new Map(), flip: false };
    this.node(a, b, '', walk, depth);
    const result = !walk.sink.some(alters);
    row.set(key2, result);
    return result;
  }

  /** For keywords without a rule: equal text, or equivalent subschemas. */
  private sameKeywordValue(keyword: string, a: unknown, b: unknown, depth: number): boolean {
    if (canonicalJson(a) === canonicalJson(b)) return true;
    if (a === undefined || b === undefined) return false;
    const slot = subschemaSlot(keyword, a);
    if (slot === undefined || slot !== subschemaSlot(keyword, b)) return false;
    if (slot === 'one') return this.equivalent(a, b, depth);
    if (slot === 'list') {
      const x = a as unknown[];
      const y = b as unknown[];
      return x.length === y.length && x.every((item, i) => (isSubschema(item) ? this.equivalent(item, y[i], depth) : canonicalJson(item) === canonicalJson(y[i])));
    }
    const x = a as JsonObject;
    const y = b as JsonObject;
    const keys = sortedUnion(Object.keys(x), Object.keys(y));
    return keys.every((k) => Object.hasOwn(x, k) && Object.hasOwn(y, k) && (isSubschema(x[k]) ? this.equivalent(x[k], y[k], depth) : canonicalJson(x[k]) === canonicalJson(y[k])));
  }

  private emit(walk: Walk, at: string, change: KeywordChange): void {
    const pointer = change.keyword === '' ? at : childPointer(at, change.keyword);
    this.emitAt(walk, pointer, change.kind, change.message, change.effect, change);
  }

  private emitAt(walk: Walk, pointer: string, kind: string, message: string, effect: Effect, values: { from?: unknown; to?: unknown } = {}): void {
    const change: SchemaChange = { kind, pointer, message, ...EFFECT_SEVERITIES[effect] };
    if (values.from !== undefined) change.from = values.from;
    if (values.to !== undefined) change.to = values.to;
    this.push(walk, change);
  }

  private push(walk: Walk, change: SchemaChange): void {
    walk.sink.push(walk.flip ? flipped(change) : change);
  }
}

/** A subschema value as a node: `true`, `false` or an object; anything else counts as `true`. */
function asSchema(value: unknown): JsonObject | boolean {
  return typeof value === 'boolean' || isObject(value) ? value : true;
}

function refOf(node: JsonObject | boolean): unknown {
  return typeof node === 'boolean' ? undefined : node['$ref'];
}

function requiredNames(node: JsonObject): Set<string> {
  const required = node['required'];
  return new Set(Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : []);
}

function closed(node: JsonObject): boolean {
  return node['additionalProperties'] === false || node['unevaluatedProperties'] === false;
}

function firstVisit(walk: Walk, oldNode: JsonObject, newNode: JsonObject): boolean {
  let row = walk.seen.get(oldNode);
  if (!row) walk.seen.set(oldNode, (row = new Map()));
  let flips = row.get(newNode);
  if (!flips) row.set(newNode, (flips = new Set()));
  if (flips.has(walk.flip)) return false;
  flips.add(walk.flip);
  return true;
}
