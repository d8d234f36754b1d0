/**
 * Introspected server → ServiceModel, the same IR a manifest gives. The snapshot is the server's
 * word, so every entry is checked here: an entry the client could not use (no name, a duplicate,
 * a schema that is not an object, an invalid `x-mcp-header`) is left out with a warning rather than
 * failing the whole client. Identifiers are assigned by the same naming as for manifests.
 */
import type { ServerSnapshot } from '../load/introspect.js';
import { headerMirrors } from '../runtime/client/headers.js';
import { buildServiceModel, type ManifestPrompt, type ManifestTool } from './service.js';
import type { ServiceModel } from './service-model.js';

type JsonObject = { [key: string]: unknown };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

export function serviceFromSnapshot(snapshot: ServerSnapshot, source: string): { model: ServiceModel; warnings: string[] } {
  const warnings: string[] = [];
  const named = <T extends JsonObject>(what: string, entries: readonly JsonObject[], key: string, check: (entry: JsonObject) => string | undefined): T[] => {
    const seen = new Set<string>();
    const kept: T[] = [];
    entries.forEach((entry, index) => {
      const name = entry[key];
      const label = typeof name === 'string' ? `${what} ${JSON.stringify(name)}` : `${what} #${index}`;
      const problem =
        typeof name !== 'string' || name === ''
          ? `has no ${key}`
          : seen.has(name)
            ? `is listed twice; the first one is kept`
            : check(entry);
      if (problem !== undefined) {
        warnings.push(`${label} left out: ${problem}`);
        return;
      }
      seen.add(name as string);
      kept.push(entry as T);
    });
    return kept;
  };

  const tools = named<ManifestTool>('tool', snapshot.tools, 'name', (tool) => {
    if (!isObject(tool['inputSchema'])) return 'its inputSchema is not an object';
    if (tool['outputSchema'] !== undefined && !isObject(tool['outputSchema'])) return 'its outputSchema is not an object';
    const mirrors = headerMirrors(tool['inputSchema']);
    return 'problem' in mirrors ? mirrors.problem : undefined;
  });
  const prompts = named<ManifestPrompt>('prompt', snapshot.prompts, 'name', (prompt) => {
    const args = prompt['arguments'];
    if (args === undefined) return undefined;
    if (!Array.isArray(args) || !args.every((a) => isObject(a) && typeof a['name'] === 'string')) return 'its arguments are not a list of named arguments';
    return undefined;
  });
  const resources = named('resource', snapshot.resources, 'uri', (r) => (typeof r['name'] === 'string' ? undefined : 'it has no name'));
  const templates = named('resource template', snapshot.resourceTemplates, 'uriTemplate', (t) =>
    typeof t['name'] === 'string' ? undefined : 'it has no name',
  );

  const info = snapshot.serverInfo;
  const server: ServiceModel['server'] = {
    name: typeof info['name'] === 'string' ? info['name'] : 'server',
    version: typeof info['version'] === 'string' ? info['version'] : '0.0.0',
  };
  if (typeof info['title'] === 'string') server.title = info['title'];
  if (snapshot.instructions !== undefined) server.instructions = snapshot.instructions;

  const { model, renamings } = buildServiceModel(
    { server, tools, prompts, resources, resourceTemplates: templates, protocol: { versions: [snapshot.protocolVersion] } },
    source,
  );
  for (const renaming of renamings) warnings.push(`note: ${renaming.message}`);
  return { model, warnings };
}

