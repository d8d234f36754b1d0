/**
 * What a server offers its clients, keyed the way clients find each thing: tools and prompts by
 * name, resources by URI, resource templates by name (so a changed uriTemplate is a change, not a
 * removal). Built from the same ServiceModel a manifest or a snapshot gives the generators.
 */
import type { HttpBindingModel, ServiceModel, UpstreamModel } from '../model/service-model.js';
import { byCodeUnit } from '../printer/names.js';
import { isObject, type JsonObject } from './json-values.js';

export interface SurfaceTool {
  /** The tools/list entry (plus `execution`, which only snapshots carry). */
  entry: JsonObject;
  /** Bundled, self-contained; draft-07 already read as 2020-12 by the loader. */
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  /** Manifest `http` (manifests and OpenAPI descriptions only: it is never on the wire). */
  http?: HttpBindingModel;
}

export interface ServerSurface {
  tools: Map<string, SurfaceTool>;
  prompts: Map<string, JsonObject>;
  resources: Map<string, JsonObject>;
  resourceTemplates: Map<string, JsonObject>;
  /**
   * Set when the side says how its tools reach an HTTP API (a manifest or an OpenAPI description):
   * its `upstream` (absent when it has none). Snapshots and live servers cannot tell, so bindings are
   * compared only when both sides have this.
   */
  http?: { upstream?: UpstreamModel };
}

/**
 * `rawTools`: a snapshot's tools as the server sent them, for the fields the model leaves out
 * (`execution.taskSupport`). Manifests have no such field.
 */
export function surfaceFromModel(model: ServiceModel, rawTools: readonly JsonObject[] = [], options: { bindings?: boolean } = {}): { surface: ServerSurface; warnings: string[] } {
  const warnings: string[] = [];
  const tools = new Map<string, SurfaceTool>();
  for (const tool of model.tools) {
    const raw = rawTools.find((t) => t['name'] === tool.name);
    const entry = isObject(raw?.['execution']) ? { ...tool.wire, execution: raw['execution'] } : tool.wire;
    tools.set(tool.name, { entry, inputSchema: tool.inputSchema, ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}), ...(options.bindings === true && tool.http ? { http: tool.http } : {}) });
  }
  const keyed = (what: string, entries: readonly { key: string; wire: JsonObject }[]): Map<string, JsonObject> => {
    const map = new Map<string, JsonObject>();
    for (const { key, wire } of entries) {
      if (map.has(key)) warnings.push(`${what} ${JSON.stringify(key)} is listed twice; the first one is compared`);
      else map.set(key, wire);
    }
    return map;
  };
  const surface: ServerSurface = {
    tools,
    prompts: keyed('prompt', model.prompts.map((p) => ({ key: p.name, wire: p.wire }))),
    // MCP Apps views are `ui://` resources to clients (as a snapshot or a live server lists them).
    resources: keyed('resource', [...model.resources, ...(model.views ?? [])].map((r) => ({ key: r.uri, wire: r.wire }))),
    resourceTemplates: keyed('resource template', model.resourceTemplates.map((t) => ({ key: t.name, wire: t.wire }))),
    ...(options.bindings === true ? { http: model.upstream ? { upstream: model.upstream } : {} } : {}),
  };
  return { surface, warnings };
}

/** Keys in the order every comparison walks them. */
export function sortedKeys(map: ReadonlyMap<string, unknown>): string[] {
  return [...map.keys()].sort(byCodeUnit);
}
