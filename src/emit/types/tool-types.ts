import type { ServiceModel, ToolModel } from '../../model/service-model.js';
import { jsdoc } from '../../printer/escape.js';
import { formatMembers, unitMarker, type MemberPart, type UnitMemo } from '../../printer/format.js';
import { byCodeUnit, pascalCase, propertyKey } from '../../printer/names.js';
import { isSchemaObject, refSegmentKey, type SchemaObject } from '../../schema/keywords.js';
import { copySchema } from '../../schema/walk.js';
import { schemaDigest } from '../../schema/digest.js';
import { typeBase, type ToolTypeNames } from '../shared/naming.js';
import { compileToolUnit, type SharedDefinition } from './tool-unit.js';
import { typeUnitCompiler, type TypeUnitJob } from './type-unit-jobs.js';

/**
 * The tools' types as units: the `Tools` map (names only, printed here), one unit per tool (its
 * input and output types through json-schema-to-typescript, formatted) and one for the shared
 * definitions. Every name is assigned up front across all tools, so each unit compiles alone; a
 * unit's cache key holds every input of its bytes (its schemas and the names chosen for it and for
 * the shared definitions it uses), and a warm run after one tool changed compiles that tool alone.
 */

export interface ToolTypeUnits {
  /** `export interface Tools {…}`, unformatted, its members left to the `tools-map` marker. */
  toolsMap: string;
  /** Formatted declarations: the shared definitions first, then one unit per tool, in manifest order. */
  units: string[];
  /** Each tool's formatted members by part: `tools-map` (its `Tools` entry) and the caller's `extraMembers`. */
  members: Map<string, string>[];
}

export async function toolTypeUnits(
  model: ServiceModel,
  names: Map<string, ToolTypeNames>,
  fixedNames: readonly string[],
  memo: UnitMemo | undefined,
  /** More members of the tool for the same unit (types.ts's `ToolHandlers` entry). */
  extraMembers: (tool: ToolModel, names: ToolTypeNames) => MemberPart[] = () => [],
): Promise<ToolTypeUnits> {
  const taken = new Set([
    ...fixedNames,
    ...[...names.values()].flatMap((n) => [n.input, n.output ?? n.input]),
    ...model.prompts.map((p) => `${p.ids.pascal}Arguments`),
  ]);
  const shared = sharedDefinitions(model, taken);
  // Keyed by the inputs, not the code: a hit skips the compiler as well as the formatter.
  const compile = typeUnitCompiler(shared);
  const cached = (kind: string, key: string, job: TypeUnitJob): Promise<string> => (memo ? memo(kind, key, () => compile(job)) : compile(job));
  const units: Promise<string>[] = [];
  if (shared.size > 0) {
    const key = JSON.stringify([...shared.values()].map((d) => [d.name, d.schema]));
    units.push(cached('types-shared', key, { kind: 'shared' }));
  }
  for (const tool of model.tools) {
    const n = names.get(tool.name) as ToolTypeNames;
    const job: TypeUnitJob = { kind: 'tool', tool: { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema }, names: { input: n.input, output: n.output } };
    units.push(cached('types-tool', toolUnitKey(tool, n, shared), job));
  }
  const members = model.tools.map((tool) => {
    const n = names.get(tool.name) as ToolTypeNames;
    // Tools without an outputSchema have no structured output at all.
    const entry = `  ${propertyKey(tool.name)}: { input: ${n.input}; output: ${n.output ?? 'never'} };\n`;
    return formatMembers([{ name: 'tools-map', kind: 'interface', code: entry }, ...extraMembers(tool, n)], memo);
  });
  // All at once, so the formatter can batch the units that missed (see formatUnit).
  const map = model.tools.length === 0 ? '' : `${unitMarker('tools-map')}\n`;
  const toolsMap = jsdoc('Input and output types of every tool, keyed by wire name: `Tools["get_weather"]["input"]`.') + `export interface Tools {\n${map}}\n`;
  return { toolsMap, units: await Promise.all(units), members: await Promise.all(members) };
}

/** Throws when a tool's schemas cannot be compiled to types (the client's check of a live server's tools). */
export async function checkToolTypes(tool: ToolModel, names: ToolTypeNames): Promise<void> {
  await compileToolUnit(tool, names, new Map());
}

/** Everything a tool's unit depends on: its names, its schemas, and the names of the shared definitions it has. */
function toolUnitKey(tool: ToolModel, n: ToolTypeNames, shared: ReadonlyMap<string, SharedDefinition>): string {
  const own = new Set<string>();
  for (const schema of tool.outputSchema ? [tool.inputSchema, tool.outputSchema] : [tool.inputSchema]) {
    for (const keyword of ['$defs', 'definitions']) {
      const definitions = schema[keyword];
      if (isSchemaObject(definitions)) for (const key of Object.keys(definitions)) own.add(key);
    }
  }
  const sharedNames = [...own].sort(byCodeUnit).map((key) => [key, shared.get(key)?.name ?? null]);
  // Each schema by its digest (schema/digest.ts): the key stays short, and the schema is hashed once per run.
  return JSON.stringify([n.input, n.output ?? null, schemaDigest(tool.inputSchema), tool.outputSchema ? schemaDigest(tool.outputSchema) : null, sharedNames]);
}

/**
 * The loader copies each shared manifest definition into every tool schema that uses it. A
 * definition held identically by every schema that has it, and referring to nothing but other
 * such definitions (by `#/$defs/<key>`), becomes one type named after its key (`Units`;
 * `Def_Units` if that name is taken) instead of one per schema (`GetWeatherInput_Units`,
 * `GetForecastInput_Units`, …).
 */
function sharedDefinitions(model: ServiceModel, taken: Set<string>): Map<string, SharedDefinition> {
  // Per key: the first definition seen, its JSON text as written and its canonical text (made only
  // when a later copy's text differs: copies made by the loader keep their key order, so the plain
  // text, which JSON.stringify makes natively, nearly always settles it); null once it cannot be shared.
  const byKey = new Map<string, { schema: SchemaObject; text: string; canonical?: string } | null>();
  const references = new Map<string, string[]>();
  for (const schema of model.tools.flatMap((t) => (t.outputSchema ? [t.inputSchema, t.outputSchema] : [t.inputSchema]))) {
    for (const keyword of ['$defs', 'definitions']) {
      const definitions = schema[keyword];
      if (!isSchemaObject(definitions)) continue;
      for (const [key, definition] of Object.entries(definitions)) {
        const seen = byKey.get(key);
        if (seen === null) continue;
        // Only text that names a reference keyword somewhere can hold a reference: walk just those.
        const text = isSchemaObject(definition) ? JSON.stringify(definition) : undefined;
        const refs = text === undefined || !REFERENCE_WORD.test(text) ? [] : referencedKeys(definition as SchemaObject);
        if (text === undefined || refs === undefined) {
          byKey.set(key, null);
        } else if (seen === undefined) {
          if (refs.length > 0) references.set(key, refs);
          byKey.set(key, { schema: definition as SchemaObject, text });
        } else if (seen.text !== text && (seen.canonical ??= canonical(seen.schema)) !== canonical(definition)) {
          byKey.set(key, null);
        }
      }
    }
  }
  // One that refers to a definition not shared is not shared either, until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, refs] of references) {
      if (byKey.get(key) && refs.some((r) => !byKey.get(r))) {
        byKey.set(key, null);
        changed = true;
      }
    }
  }
  const shared = new Map<string, SharedDefinition>();
  for (const key of [...byKey.keys()].sort(byCodeUnit)) {
    const schema = byKey.get(key)?.schema;
    if (schema === undefined) continue;
    const base = typeBase(pascalCase(key));
    const name = [base, `Def_${base}`].find((n) => !taken.has(n));
    if (name === undefined) continue;
    taken.add(name);
    shared.set(key, { name, schema });
  }
  // A definition left without a name takes those referring to it out too (their types would name it).
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, refs] of references) {
      if (shared.has(key) && refs.some((r) => !shared.has(r))) {
        shared.delete(key);
        changed = true;
      }
    }
  }
  return shared;
}

/** The keywords refersToAnything looks for, as canonical() writes a key. */
const REFERENCE_WORD = /"\$(?:ref|dynamicRef|recursiveRef)"/;

/** The definition keys `schema` refers to by `#/$defs/<key>`; undefined when it refers in any other way (it is then not shared). */
function referencedKeys(schema: SchemaObject): string[] | undefined {
  const keys = new Set<string>();
  let other = false;
  copySchema(schema, (node) => {
    if (node['$dynamicRef'] !== undefined || node['$recursiveRef'] !== undefined) other = true;
    const ref = node['$ref'];
    if (ref !== undefined) {
      const match = typeof ref === 'string' ? /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref) : null;
      const key = match ? refSegmentKey(match[1] as string) : undefined;
      if (key === undefined) other = true;
      else keys.add(key);
    }
    return node;
  });
  return other ? undefined : [...keys];
}

/** JSON with object keys sorted, so equal schemas give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isSchemaObject(value)) {
    const keys = Object.keys(value).sort(byCodeUnit);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

