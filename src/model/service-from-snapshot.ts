/**
 * Introspected server → ServiceModel, the same IR a manifest gives. The snapshot is the server's
 * word, so every entry is checked here, before any recursive walk touches it: an entry the client
 * could not use (no name, a duplicate name or JSON key, control characters in its name, nesting
 * deeper than mcp-gen reads, a schema that is not an object schema of a known dialect, an invalid
 * `x-mcp-header`, an anchor ref that names nothing) is left out with a warning rather than failing
 * the whole client. Identifiers are assigned by the same naming as for manifests.
 */
import { unplacedDiagnostic, type Diagnostic } from '../load/diagnostics.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../load/deep-json.js';
import type { ServerSnapshot, SnapshotDuplicateKey } from '../load/introspect.js';
import { headerMirrors } from '../runtime/client/headers.js';
import { reservedKeywordIn } from '../schema/reserved-keywords.js';
import { resolveAnchorRefs } from './anchor-refs.js';
import { buildServiceModel, STATELESS_REVISION, type ManifestPrompt, type ManifestTool } from './service.js';
import type { ServiceModel } from './service-model.js';

type JsonObject = { [key: string]: unknown };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** C0 and C1 controls and DEL: never part of a name a person could read or a terminal could show. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `$schema` values the generated client's validators and types understand (nothing is fetched). */
const KNOWN_DIALECTS = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-07/schema',
]);

export interface SnapshotModel {
  model: ServiceModel;
  /** Entries left out and other doubts, each naming the entry and the reason. */
  warnings: Diagnostic[];
  /** Identifiers that differ from their natural form (collisions). */
  notes: string[];
}

export function serviceFromSnapshot(snapshot: ServerSnapshot, source: string, file: string = source): SnapshotModel {
  const warnings: Diagnostic[] = [];
  const listed = (field: 'tools' | 'prompts' | 'resources' | 'resourceTemplates'): Set<unknown> => new Set(snapshot[field].flatMap((e) => [e['name'], e['uri']]));
  const duplicates = duplicatesByEntry(snapshot.duplicateKeys ?? [], file, warnings, listed);

  const named = <T extends JsonObject>(
    field: 'tools' | 'prompts' | 'resources' | 'resourceTemplates',
    what: string,
    key: string,
    check: (entry: JsonObject) => string | undefined,
  ): T[] => {
    const seen = new Set<string>();
    const kept: T[] = [];
    snapshot[field].forEach((entry, index) => {
      const pointer = `/${field}/${index}`;
      const name = entry[key];
      const label = typeof name === 'string' ? `${what} ${JSON.stringify(name)}` : `${what} #${index}`;
      const repeats = duplicates.get(pointer);
      const duplicate = repeats?.[0];
      // The other names its JSON gives it (JSON.parse kept the last): the warning names them all.
      const otherNames = [...new Set((repeats ?? []).filter((d) => d.pointer === `${pointer}/${key}`).flatMap((d) => d.earlier ?? []))].filter((n) => n !== name);
      const alsoNamed = otherNames.length > 0 ? `, also naming it ${otherNames.map((n) => JSON.stringify(n)).join(', ')}` : '';
      const depth = jsonDepth(entry);
      const problem =
        typeof name !== 'string' || name === ''
          ? `has no ${key}`
          : CONTROL.test(name)
            ? `its ${key} contains control characters`
            : duplicate !== undefined
              ? `its JSON has a duplicate key ${JSON.stringify(duplicate.key)} (at ${duplicate.pointer})${alsoNamed}; readers disagree on which value counts`
              : seen.has(name)
                ? `duplicate ${key}: another ${what} of that ${key} is listed before it`
                : depth > MAX_JSON_DEPTH
                  ? `it is nested ${depth} levels deep; mcp-gen reads at most ${MAX_JSON_DEPTH}`
                  : check(entry);
      if (typeof name === 'string') seen.add(name);
      if (problem === undefined) {
        kept.push(entry as T);
        return;
      }
      const warning = unplacedDiagnostic(file, pointer, `${label} left out: ${problem}`);
      // A duplicate key found in the file's text has a place in it.
      if (problem.startsWith('its JSON has a duplicate key') && duplicate?.line !== undefined) Object.assign(warning, { line: duplicate.line, column: duplicate.column ?? 1 });
      warnings.push(warning);
    });
    return kept;
  };

  const stateless = snapshot.protocolVersion === STATELESS_REVISION;
  const tools = named<ManifestTool>('tools', 'tool', 'name', (tool) => {
    const input = schemaProblem(tool['inputSchema'], 'inputSchema', true);
    if (input !== undefined) return input;
    if (tool['outputSchema'] !== undefined) {
      // Structured results are objects before 2026-07-28; from it on, any JSON value.
      const output = schemaProblem(tool['outputSchema'], 'outputSchema', !stateless);
      if (output !== undefined) return output;
    }
    const mirrors = headerMirrors(tool['inputSchema'] as JsonObject);
    return 'problem' in mirrors ? mirrors.problem : undefined;
  });
  const prompts = named<ManifestPrompt>('prompts', 'prompt', 'name', (prompt) => {
    const args = prompt['arguments'];
    if (args === undefined) return undefined;
    if (!Array.isArray(args) || !args.every((a) => isObject(a) && typeof a['name'] === 'string')) return 'its arguments are not a list of named arguments';
    return undefined;
  });
  const resources = named('resources', 'resource', 'uri', (r) => (typeof r['name'] === 'string' ? undefined : 'it has no name'));
  const templates = named('resourceTemplates', 'resource template', 'uriTemplate', (t) =>
    typeof t['name'] === 'string' ? undefined : 'it has no name',
  );

  const info = snapshot.serverInfo;
  const server: ServiceModel['server'] = {
    name: typeof info['name'] === 'string' ? info['name'] : 'server',
    version: typeof info['version'] === 'string' ? info['version'] : '0.0.0',
  };
  if (typeof info['title'] === 'string') server.title = info['title'];
  if (typeof snapshot.instructions === 'string') server.instructions = snapshot.instructions;

  const { model, renamings } = buildServiceModel(
    { server, tools, prompts, resources, resourceTemplates: templates, protocol: { versions: [snapshot.protocolVersion] } },
    source,
  );
  // Anchor refs become pointers, which the emitters can embed; the wire keeps what the server sent.
  model.tools = model.tools.filter((tool) => {
    const index = snapshot.tools.findIndex((t) => t['name'] === tool.name);
    for (const key of ['inputSchema', 'outputSchema'] as const) {
      const schema = tool[key];
      if (schema === undefined) continue;
      const resolved = resolveAnchorRefs(schema);
      if ('problem' in resolved) {
        warnings.push(unplacedDiagnostic(file, `/tools/${index}/${key}`, `tool ${JSON.stringify(tool.name)} left out: its ${key}: ${resolved.problem}`));
        return false;
      }
      tool[key] = resolved.schema;
    }
    return true;
  });
  return { model, warnings, notes: renamings.map((renaming) => renaming.message) };
}

/**
 * Why a tool schema cannot be used as it is, or undefined. Only what needs no compiler: a JSON
 * object, a dialect mcp-gen knows, an object root where one is required. Keyword types, patterns
 * and the rest are ajv's to judge (src/emit/client/compilable.ts).
 */
function schemaProblem(schema: unknown, key: string, objectRoot: boolean): string | undefined {
  if (!isObject(schema)) return `its ${key} is not a JSON Schema object`;
  const dialect = schema['$schema'];
  if (dialect !== undefined && (typeof dialect !== 'string' || !KNOWN_DIALECTS.has(dialect))) {
    return `its ${key} uses the unknown JSON Schema dialect ${JSON.stringify(dialect)} (mcp-gen knows 2020-12 and draft-07 and fetches no meta-schema)`;
  }
  const reserved = reservedKeywordIn(schema);
  if (reserved) return `its ${key} uses ${JSON.stringify(reserved.keyword)} (at ${reserved.pointer}), a keyword reserved for mcp-gen's generated code`;
  if (objectRoot && schema['type'] !== 'object') {
    return `its ${key} does not describe an object (its root needs "type": "object", not ${JSON.stringify(schema['type'] ?? null)})`;
  }
  return undefined;
}

/**
 * Duplicate keys by the list entry they are in (`/tools/3`); those outside any entry are warned
 * about here (JSON.parse kept the last value).
 */
function duplicatesByEntry(
  found: readonly SnapshotDuplicateKey[],
  file: string,
  warnings: Diagnostic[],
  listed: (field: 'tools' | 'prompts' | 'resources' | 'resourceTemplates') => Set<unknown>,
): Map<string, SnapshotDuplicateKey[]> {
  const byEntry = new Map<string, SnapshotDuplicateKey[]>();
  for (const duplicate of found) {
    const entry = /^\/(tools|prompts|resources|resourceTemplates)\/(0|[1-9][0-9]*)(?=\/)/.exec(duplicate.pointer)?.[0];
    if (entry !== undefined) {
      byEntry.set(entry, [...(byEntry.get(entry) ?? []), duplicate]);
      continue;
    }
    // A list sent twice in one answer (`"tools":[…],"tools":[…]`): what only the first held is lost.
    const list = /^(?:\/\d+)?\/result\/(tools|prompts|resources|resourceTemplates)$/.exec(duplicate.pointer)?.[1] as 'tools' | 'prompts' | 'resources' | 'resourceTemplates' | undefined;
    const lost = list === undefined ? [] : (duplicate.earlier ?? []).filter((name) => !listed(list).has(name));
    const leftOut = lost.length > 0 ? `, leaving out ${lost.map((n) => JSON.stringify(n)).join(', ')} that only the earlier value listed` : '';
    warnings.push({
      ...unplacedDiagnostic(file, duplicate.pointer, `duplicate key ${JSON.stringify(duplicate.key)} in the server's JSON; the last value is used${leftOut}`),
      ...(duplicate.line !== undefined ? { line: duplicate.line, column: duplicate.column ?? 1 } : {}),
    });
  }
  return byEntry;
}
