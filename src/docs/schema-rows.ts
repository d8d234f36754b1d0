/**
 * A JSON Schema flattened into the rows of a reference table: one row per property (nested
 * objects and array items expanded below their parent, one level deeper), with its type, whether
 * it is required, its description and its constraints as short phrases. Local `$ref`s are
 * followed; a reference back into itself becomes one row that says so, and depth is bounded.
 */

export interface SchemaRow {
  /** `location`, `place.city`, `days[]`, `days[].high`. */
  path: string;
  depth: number;
  type: string;
  required: boolean;
  description?: string;
  /** `one of "celsius", "fahrenheit"`, `format: date`, `≥ 1`, `default: 3`… */
  details: string[];
  /** The `Mcp-Param-*` header this argument is mirrored into (2026-07-28 over HTTP). */
  header?: string;
}

type Schema = { [key: string]: unknown };

const MAX_DEPTH = 8;

/** Rows for the properties of `schema` (an object schema); `headers` maps argument paths to header names. */
export function schemaRows(schema: Schema, headers: ReadonlyMap<string, string> = new Map()): SchemaRow[] {
  const rows: SchemaRow[] = [];
  const walker = new Walker(schema, headers, rows);
  walker.children(walker.resolve(schema, new Set()).schema, '', 0, new Set());
  return rows;
}

class Walker {
  constructor(
    private readonly root: Schema,
    private readonly headers: ReadonlyMap<string, string>,
    private readonly rows: SchemaRow[],
  ) {}

  /** Follows local `$ref`s; `seen` holds the refs on the way here, so a cycle is reported once. */
  resolve(schema: Schema, seen: ReadonlySet<string>): { schema: Schema; cycle?: string; refs: Set<string> } {
    const refs = new Set(seen);
    let current = schema;
    for (let hops = 0; typeof current['$ref'] === 'string' && hops < 32; hops++) {
      const ref = current['$ref'];
      if (refs.has(ref)) return { schema: current, cycle: ref, refs };
      refs.add(ref);
      const target = pointer(this.root, ref);
      if (target === undefined) return { schema: { ...current, $ref: undefined, description: current['description'] ?? `unresolved ${ref}` }, refs };
      // Keywords beside a $ref apply too (2020-12): the sibling description wins for the table.
      const { $ref: _ref, ...siblings } = current;
      current = { ...target, ...siblings };
    }
    return { schema: current, refs };
  }

  /** `object[]` for an array whose items are a `$ref` to an object, too. */
  private typeName(schema: Schema, depth: number): string {
    const items = schema['items'];
    if (schema['type'] === 'array' && isObject(items) && depth < 4) return `${this.typeName(this.resolve(items, new Set()).schema, depth + 1)}[]`;
    return typeOf(schema);
  }

  /** Rows for the properties, items and variants below `schema`. */
  children(schema: Schema, path: string, depth: number, seen: ReadonlySet<string>): void {
    if (depth > MAX_DEPTH) return;
    const properties = isObject(schema['properties']) ? schema['properties'] : {};
    const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : []);
    for (const [name, child] of Object.entries(properties)) {
      this.row(asSchema(child), path === '' ? name : `${path}.${name}`, depth, required.has(name), seen);
    }
    if (isObject(schema['additionalProperties'])) this.row(schema['additionalProperties'], `${path}{*}`, depth, false, seen);
    if (Array.isArray(schema['prefixItems'])) {
      schema['prefixItems'].forEach((item, index) => this.row(asSchema(item), `${path}[${index}]`, depth, false, seen));
    }
    if (isObject(schema['items'])) {
      const items = this.resolve(schema['items'], seen);
      // An array of objects: its items' properties go straight below it (`days[].date`), no row for `days[]`.
      if (items.cycle === undefined && isObject(items.schema['properties']) && items.schema['description'] === undefined) {
        this.children(items.schema, `${path}[]`, depth, items.refs);
      } else this.row(schema['items'], `${path}[]`, depth, false, seen);
    }
    for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
      const variants = schema[keyword];
      if (!Array.isArray(variants)) continue;
      variants.forEach((variant, index) => {
        const label = `${path}${path === '' ? '' : ' '}(${VARIANT_WORD[keyword]} ${index + 1})`;
        this.row(asSchema(variant), label, depth, false, seen);
      });
    }
  }

  private row(raw: Schema, path: string, depth: number, required: boolean, seen: ReadonlySet<string>): void {
    const { schema, cycle, refs } = this.resolve(raw, seen);
    const header = this.headers.get(path);
    const description = typeof schema['description'] === 'string' ? schema['description'] : undefined;
    this.rows.push({
      path,
      depth,
      type: cycle !== undefined ? 'recursive' : this.typeName(schema, 0),
      required,
      ...(description !== undefined ? { description } : {}),
      details: cycle !== undefined ? [`the same shape as ${cycle}, nested`] : details(schema),
      ...(header !== undefined ? { header } : {}),
    });
    if (cycle === undefined) this.children(schema, path, depth + 1, refs);
  }
}

const VARIANT_WORD = { oneOf: 'one of', anyOf: 'any of', allOf: 'all of' } as const;

function typeOf(schema: Schema): string {
  const type = schema['type'];
  if (typeof type === 'string') return type === 'array' && isObject(schema['items']) ? `${typeOf(schema['items'])}[]` : type;
  if (Array.isArray(type)) return type.filter((t) => typeof t === 'string').join(' | ');
  if ('const' in schema) return 'constant';
  if (Array.isArray(schema['enum'])) return 'enum';
  if (isObject(schema['properties'])) return 'object';
  if (Array.isArray(schema['oneOf'])) return 'one of';
  if (Array.isArray(schema['anyOf'])) return 'any of';
  if (Array.isArray(schema['allOf'])) return 'all of';
  return 'any';
}

/** Constraint phrases, in a fixed order so the page is the same for the same schema. */
function details(schema: Schema): string[] {
  const out: string[] = [];
  const items = schema['items'];
  if (isObject(items) && isObject(items['properties']) && items['additionalProperties'] === false) out.push('items: no other properties');
  const json = (value: unknown): string => JSON.stringify(value) ?? String(value);
  if ('const' in schema) out.push(`always ${json(schema['const'])}`);
  if (Array.isArray(schema['enum'])) out.push(`one of ${schema['enum'].map(json).join(', ')}`);
  if (typeof schema['format'] === 'string') out.push(`format: ${schema['format']}`);
  if (typeof schema['pattern'] === 'string') out.push(`pattern: ${schema['pattern']}`);
  const bound = (keyword: string, phrase: (n: number) => string): void => {
    const value = schema[keyword];
    if (typeof value === 'number') out.push(phrase(value));
  };
  bound('minimum', (n) => `≥ ${n}`);
  bound('exclusiveMinimum', (n) => `> ${n}`);
  bound('maximum', (n) => `≤ ${n}`);
  bound('exclusiveMaximum', (n) => `< ${n}`);
  bound('multipleOf', (n) => `a multiple of ${n}`);
  bound('minLength', (n) => `at least ${n} character${n === 1 ? '' : 's'}`);
  bound('maxLength', (n) => `at most ${n} character${n === 1 ? '' : 's'}`);
  bound('minItems', (n) => `at least ${n} item${n === 1 ? '' : 's'}`);
  bound('maxItems', (n) => `at most ${n} item${n === 1 ? '' : 's'}`);
  if (schema['uniqueItems'] === true) out.push('items unique');
  if (schema['additionalProperties'] === false) out.push('no other properties');
  if ('default' in schema) out.push(`default: ${json(schema['default'])}`);
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) out.push(`e.g. ${json(schema['examples'][0])}`);
  if (schema['deprecated'] === true) out.push('deprecated');
  return out;
}

function pointer(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !(key in node)) return undefined;
    node = node[key];
  }
  return isObject(node) ? node : undefined;
}

function asSchema(value: unknown): Schema {
  return isObject(value) ? value : {};
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
