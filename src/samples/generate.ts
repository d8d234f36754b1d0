/**
 * Values built from a JSON Schema: what `mcp-gen mock` answers and what a reference page shows as
 * an example. `sampleValue` is a pure function of the schema, the seed and a path (no I/O, no
 * Math.random): the same three give the same value, another seed another one. Every value is held
 * against the caller's validator (the one the generated server would run); one that fails is made
 * again from a fresh stream, and a schema no attempt satisfies is reported with the JSON pointer
 * the validator names.
 */
import { formatSample, word } from './formats.js';
import { defineOwn, isObject, mergeSchemas, type Schema } from './merge.js';
import { seededRandom, type Random } from './prng.js';
import { patternSample } from './regex.js';

/** The validator contract: ajv's (in-process or standalone), as the generated server runs it. */
export interface SampleValidator {
  (data: unknown): boolean;
  errors?: readonly { instancePath: string; schemaPath?: string; message?: string }[] | null;
}

export interface SampleRequest {
  schema: Schema;
  /** The user's seed: any string or number. */
  seed: string | number;
  /** What is being generated (e.g. a tool name and its arguments): different paths, different values. */
  path: string;
  /** Judges every candidate; only values it accepts are returned. */
  validate: SampleValidator;
  /** How errors name the schema, e.g. `tool get_weather (outputSchema)`. */
  label?: string;
  /** Candidates tried before giving up; default 40. */
  attempts?: number;
  /** Nesting depth after which optional parts are left out, to bound recursive schemas; default 6. */
  shallowDepth?: number;
}

/** A schema that no generated candidate satisfied. */
export class SampleError extends Error {
  constructor(
    message: string,
    /** JSON pointer into the value where the last candidate failed. */
    readonly pointer: string,
    /** JSON pointer into the schema of the keyword that failed, when the validator said. */
    readonly schemaPointer: string | undefined,
  ) {
    super(message);
    this.name = 'SampleError';
  }
}

/** Raised inside generation for a part that cannot be built (`false`, an unknown `$ref`, …). */
class Unsatisfiable extends Error {
  constructor(
    readonly pointer: string,
    reason: string,
  ) {
    super(reason);
  }
}

const ALL_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
const PRIMITIVE_TYPES = ['string', 'number', 'integer', 'boolean', 'null'];
/** Nesting past this is refused: a schema that requires deeper values has no finite sample. */
const HARD_DEPTH = 48;

export function sampleValue(request: SampleRequest): unknown {
  const attempts = request.attempts ?? 40;
  const label = request.label ?? 'the schema';
  let failure: { pointer: string; schemaPointer?: string; reason: string } = { pointer: '', reason: 'no attempt made' };
  for (let attempt = 0; attempt < attempts; attempt++) {
    const random = seededRandom(request.seed, attempt === 0 ? request.path : `${request.path}\u0000${attempt}`);
    const generator = new Generator(request.schema, random, request.shallowDepth ?? 6);
    let value: unknown;
    try {
      value = generator.value(request.schema, 0, '');
    } catch (error) {
      if (!(error instanceof Unsatisfiable)) throw error;
      failure = { pointer: error.pointer, reason: error.message };
      continue;
    }
    let valid: boolean;
    try {
      valid = request.validate(value);
    } catch (error) {
      // A validator that throws on a value cannot vouch for it: try another.
      failure = { pointer: '', reason: `the validator failed: ${(error as Error).message}` };
      continue;
    }
    if (valid) return value;
    const first = request.validate.errors?.[0];
    failure = {
      pointer: first?.instancePath ?? '',
      reason: first?.message ?? 'rejected by the validator',
      ...(first?.schemaPath !== undefined ? { schemaPointer: first.schemaPath.replace(/^#/, '') } : {}),
    };
  }
  const where = failure.schemaPointer !== undefined ? ` (schema ${failure.schemaPointer})` : '';
  throw new SampleError(
    `cannot generate a value for ${label} after ${attempts} attempts: at ${failure.pointer === '' ? '/' : failure.pointer}: ${failure.reason}${where}`,
    failure.pointer,
    failure.schemaPointer,
  );
}

class Generator {
  constructor(
    private readonly root: Schema,
    private readonly random: Random,
    private readonly shallowDepth: number,
  ) {}

  value(input: Schema, depth: number, pointer: string): unknown {
    if (depth > HARD_DEPTH) throw new Unsatisfiable(pointer, `nesting deeper than ${HARD_DEPTH} levels (a recursive schema that requires itself?)`);
    const schema = this.flatten(input, pointer);
    if (schema === false) throw new Unsatisfiable(pointer, 'the schema is false: no value satisfies it');
    if (schema === true) return this.anyValue(depth);
    const r = this.random;
    if (Object.hasOwn(schema, 'const')) return structuredClone(schema['const']);
    if (Array.isArray(schema['enum'])) {
      if (schema['enum'].length === 0) throw new Unsatisfiable(pointer, 'enum has no value that satisfies every constraint');
      return structuredClone(r.pick(schema['enum']));
    }
    const type = this.chooseType(schema, depth, pointer);
    switch (type) {
      case 'object':
        return this.object(schema, depth, pointer);
      case 'array':
        return this.array(schema, depth, pointer);
      case 'string':
        return this.string(schema, pointer);
      case 'number':
      case 'integer':
        return this.number(schema, type === 'integer', pointer);
      case 'boolean':
        return r.chance(0.5);
      default:
        return null;
    }
  }

  /** `$ref`, `allOf`, one branch of each `anyOf`/`oneOf`, and `if`/`then`/`else`, merged into one schema. */
  private flatten(input: Schema, pointer: string): Schema {
    let schema = input;
    for (let round = 0; typeof schema === 'object' && round < 64; round++) {
      const rest: { [key: string]: unknown } = {};
      for (const key of Object.keys(schema)) defineOwn(rest, key, schema[key]);
      if (typeof rest['$ref'] === 'string') {
        const target = this.resolve(rest['$ref'], pointer);
        delete rest['$ref'];
        schema = mergeSchemas(target, rest);
      } else if (Array.isArray(rest['allOf'])) {
        const parts = rest['allOf'] as Schema[];
        delete rest['allOf'];
        schema = parts.reduce<Schema>((acc, part) => mergeSchemas(acc, part), rest);
      } else if (Array.isArray(rest['anyOf']) || Array.isArray(rest['oneOf'])) {
        const key = Array.isArray(rest['anyOf']) ? 'anyOf' : 'oneOf';
        const branches = rest[key] as Schema[];
        delete rest[key];
        if (branches.length === 0) throw new Unsatisfiable(pointer, `${key} has no branches`);
        schema = mergeSchemas(rest, this.random.pick(branches));
      } else if (Object.hasOwn(rest, 'if')) {
        const [condition, then, otherwise] = [rest['if'], rest['then'] ?? true, rest['else'] ?? true] as [Schema, Schema, Schema];
        delete rest['if'];
        delete rest['then'];
        delete rest['else'];
        schema = this.random.chance(0.5) ? mergeSchemas(rest, mergeSchemas(condition, then)) : mergeSchemas(rest, otherwise);
      } else return schema;
    }
    return schema;
  }

  /** A local `$ref`: a JSON pointer from the root (`#/$defs/x`) or an `$anchor` (`#name`). */
  private resolve(ref: string, pointer: string): Schema {
    if (!ref.startsWith('#')) throw new Unsatisfiable(pointer, `$ref ${ref} is not local to the schema`);
    const fragment = decodeURIComponent(ref.slice(1));
    if (fragment === '' || fragment.startsWith('/')) {
      let node: unknown = this.root;
      for (const raw of fragment.split('/').slice(1)) {
        const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
        if (!isObject(node) && !Array.isArray(node)) throw new Unsatisfiable(pointer, `$ref ${ref} leads nowhere`);
        if (!Object.hasOwn(node, segment)) throw new Unsatisfiable(pointer, `$ref ${ref} leads nowhere`);
        node = (node as Record<string, unknown>)[segment];
      }
      if (typeof node !== 'boolean' && !isObject(node)) throw new Unsatisfiable(pointer, `$ref ${ref} is not a schema`);
      return node;
    }
    const found = findAnchor(this.root, fragment);
    if (found === undefined) throw new Unsatisfiable(pointer, `$ref ${ref} names no $anchor`);
    return found;
  }

  private chooseType(schema: { [key: string]: unknown }, depth: number, pointer: string): string {
    const declared = schema['type'];
    if (declared !== undefined) {
      const types = (Array.isArray(declared) ? declared : [declared]).filter((t): t is string => typeof t === 'string');
      if (types.length === 0) throw new Unsatisfiable(pointer, 'no type satisfies every constraint');
      // Past the shallow depth, a leaf ends the recursion sooner.
      const leaves = types.filter((t) => PRIMITIVE_TYPES.includes(t));
      return this.random.pick(depth >= this.shallowDepth && leaves.length > 0 ? leaves : types);
    }
    const implied: string[] = [];
    const has = (...keys: string[]): boolean => keys.some((k) => Object.hasOwn(schema, k));
    if (has('properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties', 'dependentRequired', 'propertyNames')) implied.push('object');
    if (has('items', 'prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems')) implied.push('array');
    if (has('minLength', 'maxLength', 'pattern', 'format')) implied.push('string');
    if (has('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf')) implied.push('number');
    if (implied.length > 0 && depth < this.shallowDepth) return this.random.pick(implied);
    return this.random.pick(depth >= this.shallowDepth ? PRIMITIVE_TYPES : ALL_TYPES);
  }

  private anyValue(depth: number): unknown {
    const r = this.random;
    switch (r.pick(depth >= this.shallowDepth ? PRIMITIVE_TYPES : ['string', 'integer', 'boolean', 'null', 'string'])) {
      case 'string':
        return word(r);
      case 'number':
      case 'integer':
        return r.int(0, 100);
      case 'boolean':
        return r.chance(0.5);
      default:
        return null;
    }
  }

  private object(schema: { [key: string]: unknown }, depth: number, pointer: string): object {
    const r = this.random;
    const shallow = depth >= this.shallowDepth;
    const properties = isObject(schema['properties']) ? schema['properties'] : {};
    const patterns = isObject(schema['patternProperties']) ? Object.keys(schema['patternProperties']) : [];
    const additional = schema['additionalProperties'] ?? schema['unevaluatedProperties'] ?? true;
    const required = Array.isArray(schema['required']) ? schema['required'].filter((k): k is string => typeof k === 'string') : [];
    const min = typeof schema['minProperties'] === 'number' ? schema['minProperties'] : 0;
    const max = typeof schema['maxProperties'] === 'number' ? schema['maxProperties'] : Infinity;

    const keys: string[] = [...new Set(required)];
    const optional = Object.keys(properties).filter((k) => !keys.includes(k));
    for (const key of optional) if (!shallow && keys.length < max && r.chance(0.6)) keys.push(key);
    // Keys that `dependentRequired` brings along with the ones chosen.
    const dependencies = isObject(schema['dependentRequired']) ? schema['dependentRequired'] : {};
    for (let i = 0; i < keys.length; i++) {
      const needs = dependencies[keys[i] as string];
      if (Object.hasOwn(dependencies, keys[i] as string) && Array.isArray(needs)) for (const need of needs) if (typeof need === 'string' && !keys.includes(need)) keys.push(need);
    }
    for (let extra = 0; keys.length < min && extra < min + 8; extra++) {
      const unused = optional.find((k) => !keys.includes(k));
      if (unused !== undefined) keys.push(unused);
      else if (patterns.length > 0 && r.chance(0.7)) {
        const key = patternSample(r.pick(patterns), r, (s) => !keys.includes(s));
        if (key !== undefined) keys.push(key);
      } else if (additional !== false) keys.push(`${word(r)}${extra}`);
    }

    const out: { [key: string]: unknown } = {};
    for (const key of keys) {
      let applies: Schema = Object.hasOwn(properties, key) ? (properties[key] as Schema) : true;
      let matched = Object.hasOwn(properties, key);
      for (const pattern of patterns) {
        if (safeTest(pattern, key)) {
          applies = mergeSchemas(applies, (schema['patternProperties'] as Record<string, Schema>)[pattern] as Schema);
          matched = true;
        }
      }
      if (!matched && (typeof additional === 'boolean' || isObject(additional))) applies = additional as Schema;
      defineOwn(out, key, this.value(applies, depth + 1, `${pointer}/${escapePointer(key)}`));
    }
    return out;
  }

  private array(schema: { [key: string]: unknown }, depth: number, pointer: string): unknown[] {
    const r = this.random;
    const prefix = (Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : Array.isArray(schema['items']) ? schema['items'] : []) as Schema[];
    const rest = (Array.isArray(schema['items']) ? schema['additionalItems'] ?? true : schema['items'] ?? true) as Schema;
    const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
    let max = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : Infinity;
    if (rest === false) max = Math.min(max, prefix.length);
    const contains = schema['contains'] as Schema | undefined;
    const needContains = contains === undefined ? 0 : typeof schema['minContains'] === 'number' ? schema['minContains'] : 1;
    const low = Math.max(min, needContains);
    const count = depth >= this.shallowDepth ? low : r.int(low, Math.max(low, Math.min(max, low + 3)));
    const unique = schema['uniqueItems'] === true;
    const seen = new Set<string>();
    const items: unknown[] = [];
    for (let i = 0; i < count; i++) {
      let item: Schema = i < prefix.length ? (prefix[i] as Schema) : rest;
      // The last `needContains` places hold items of the `contains` schema.
      if (contains !== undefined && i >= count - needContains) item = mergeSchemas(item, contains);
      let value = this.value(item, depth + 1, `${pointer}/${i}`);
      for (let retry = 0; unique && seen.has(JSON.stringify(value)) && retry < 8; retry++) value = this.value(item, depth + 1, `${pointer}/${i}`);
      seen.add(JSON.stringify(value));
      items.push(value);
    }
    return items;
  }

  private string(schema: { [key: string]: unknown }, pointer: string): string {
    const r = this.random;
    const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
    const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
    const fits = (s: string): boolean => [...s].length >= min && [...s].length <= max;
    if (typeof schema['format'] === 'string') {
      const formatted = formatSample(schema['format'], r);
      if (formatted !== undefined) return formatted;
    }
    if (typeof schema['pattern'] === 'string') {
      const matched = patternSample(schema['pattern'], r, fits);
      if (matched === undefined) throw new Unsatisfiable(pointer, `found no string matching the pattern ${JSON.stringify(schema['pattern'])} within the length bounds`);
      return matched;
    }
    if (min > max) throw new Unsatisfiable(pointer, `minLength ${min} is above maxLength ${max}`);
    let text = `${word(r)}-${r.int(1, 99)}`;
    while ([...text].length < min) text += `-${word(r)}`;
    if ([...text].length > max) text = [...text].slice(0, max).join('');
    return text;
  }

  private number(schema: { [key: string]: unknown }, integer: boolean, pointer: string): number {
    const r = this.random;
    const num = (key: string): number | undefined => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
    let low = num('minimum') ?? -Infinity;
    let high = num('maximum') ?? Infinity;
    const exclusiveLow = num('exclusiveMinimum');
    const exclusiveHigh = num('exclusiveMaximum');
    const above = (v: number): boolean => v >= low && (exclusiveLow === undefined || v > exclusiveLow);
    const below = (v: number): boolean => v <= high && (exclusiveHigh === undefined || v < exclusiveHigh);
    if (exclusiveLow !== undefined) low = Math.max(low, exclusiveLow);
    if (exclusiveHigh !== undefined) high = Math.min(high, exclusiveHigh);
    if (low === -Infinity && high === Infinity) [low, high] = [0, 100];
    else if (low === -Infinity) low = high - 100;
    else if (high === Infinity) high = low + 100;
    const multipleOf = num('multipleOf');
    let step = multipleOf ?? (integer ? 1 : 0.5);
    if (integer && !Number.isInteger(step)) {
      // The smallest whole multiple of a fractional step.
      let k = 1;
      while (!Number.isInteger(step * k) && k < 1000) k++;
      step = Math.round(step * k);
    }
    if (!(step > 0)) throw new Unsatisfiable(pointer, 'multipleOf must be above 0');
    const first = Math.ceil(low / step);
    const last = Math.floor(high / step);
    const candidates: number[] = [];
    for (let k = first; k <= last && candidates.length < 200; k++) {
      const v = Number((k * step).toPrecision(15));
      if (above(v) && below(v)) candidates.push(v);
    }
    if (candidates.length > 0) return r.pick(candidates);
    // No multiple of the default step fits between the bounds: any number between them will do.
    if (multipleOf === undefined && !integer && low < high) return (low + high) / 2;
    throw new Unsatisfiable(pointer, `no ${integer ? 'integer' : 'number'} between the bounds${multipleOf !== undefined ? ` is a multiple of ${multipleOf}` : ''}`);
  }
}

function findAnchor(node: unknown, anchor: string): Schema | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findAnchor(item, anchor);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  if (node['$anchor'] === anchor) return node;
  for (const key of Object.keys(node)) {
    if (key === 'const' || key === 'enum' || key === 'default' || key === 'examples') continue;
    const found = findAnchor(node[key], anchor);
    if (found !== undefined) return found;
  }
  return undefined;
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
