/**
 * Which JSON Schema keywords hold subschemas (draft-07 and 2020-12): the one table every schema
 * walker reads, so that everywhere alike a *property* named `$ref` or `items`, an enum value or a
 * const is data, never a schema. A leaf: every phase (load, model, emit, diff) imports it, it imports none.
 */

export type SchemaObject = { [key: string]: unknown };

/** How a keyword holds subschemas: one, an array of them, or a map from names to them. */
export type SubschemaSlot = 'one' | 'list' | 'map';

const ONE = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const LIST = new Set(['allOf', 'anyOf', 'items', 'oneOf', 'prefixItems']);
const MAP = new Set(['$defs', 'definitions', 'dependencies', 'dependentSchemas', 'patternProperties', 'properties']);

/**
 * The slot `keyword` fills with `value`, or undefined when that value is data to copy untouched
 * (an unknown keyword, or a value of the wrong type, which ajv reports later). 'list' promises an
 * array, 'one' an `isSubschema` value, 'map' an `isSchemaObject` value. Two subtleties:
 * - `items` is one schema, or in draft-07 an array of them (a tuple; 2020-12 calls that
 *   `prefixItems`), so the value decides between 'one' and 'list'.
 * - draft-07 `dependencies` maps each property name to a schema OR to an array of property names.
 *   Those arrays are data: a walker must check each list item and map entry with `isSubschema`
 *   (or treat whatever is not a schema object as data) before taking it for a schema.
 */
export function subschemaSlot(keyword: string, value: unknown): SubschemaSlot | undefined {
  if (LIST.has(keyword) && Array.isArray(value)) return 'list';
  if (ONE.has(keyword)) return isSubschema(value) ? 'one' : undefined;
  if (MAP.has(keyword) && isSchemaObject(value)) return 'map';
  return undefined;
}

/** Keywords that only document a schema: a change to them alone changes no verdict and no type. */
export const DOCS_KEYWORDS: ReadonlySet<string> = new Set(['title', 'description', 'examples', '$comment']);

/**
 * Keywords that annotate and never change which values are valid: the docs ones, plus `default`
 * (ajv ignores it without useDefaults), `deprecated`, `readOnly` and `writeOnly`.
 */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([...DOCS_KEYWORDS, 'default', 'deprecated', 'readOnly', 'writeOnly']);

/** A JSON object: not null, not an array. */
export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema in either form: an object, or `true`/`false`. */
export function isSubschema(value: unknown): value is SchemaObject | boolean {
  return typeof value === 'boolean' || isSchemaObject(value);
}

/** `target[key] = value` that stays a plain own property even for `__proto__`: keys are data. */
export function defineOwn(target: SchemaObject, key: string, value: unknown): void {
  // Only `__proto__` needs defineProperty (assigning it would set the prototype); plain assignment
  // makes the same own property for every other key, several times faster.
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** RFC 6901 escaping of one pointer segment. */
export function pointerSegment(key: string): string {
  // Most keys need no escaping: skip the two regex passes for them (pointers are built for every node).
  if (!key.includes('~') && !key.includes('/')) return key;
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A segment of a `#/…` ref back to its key: percent-decoded, then RFC 6901; undefined when malformed. */
export function refSegmentKey(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return undefined;
  }
}
