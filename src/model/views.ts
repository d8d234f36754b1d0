/**
 * MCP Apps in the service model: manifest `views` become `ui://` resources with the extension's
 * mime type and `_meta.ui`, and a tool's `view` and `visibility` become its `_meta.ui`. The wire
 * shapes follow the extension's specification (io.modelcontextprotocol/ui, 2026-01-26).
 */
import type { ToolModel, ToolVisibility, ViewModel } from './service-model.js';

type JsonObject = { [key: string]: unknown };

/** The extension's identifier, in `capabilities.extensions` of hosts that show views. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The mime type of a view's page. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** What the loader hands over for one view: the manifest entry and its page (`page`). */
export interface ManifestView extends JsonObject {
  uri: string;
  name: string;
  page?: string;
}

/** `permissions: [camera]` in the manifest is `{ camera: {} }` on the wire. */
function uiMeta(view: ManifestView): JsonObject | undefined {
  const ui: JsonObject = {};
  const csp = view['csp'];
  if (typeof csp === 'object' && csp !== null) {
    const fields: JsonObject = {};
    for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains']) {
      const origins = (csp as JsonObject)[key];
      if (Array.isArray(origins)) fields[key] = [...origins];
    }
    if (Object.keys(fields).length > 0) ui['csp'] = fields;
  }
  const permissions = view['permissions'];
  if (Array.isArray(permissions) && permissions.length > 0) ui['permissions'] = Object.fromEntries(permissions.map((p) => [String(p), {}]));
  if (typeof view['domain'] === 'string') ui['domain'] = view['domain'];
  if (typeof view['prefersBorder'] === 'boolean') ui['prefersBorder'] = view['prefersBorder'];
  return Object.keys(ui).length > 0 ? ui : undefined;
}

export function viewModel(view: ManifestView): ViewModel {
  const ui = uiMeta(view);
  const wire: JsonObject = { uri: view.uri, name: view.name };
  for (const key of ['title', 'description']) if (typeof view[key] === 'string') wire[key] = view[key];
  wire['mimeType'] = VIEW_MIME_TYPE;
  if (ui !== undefined) wire['_meta'] = { ui };
  return { uri: view.uri, name: view.name, wire, ...(ui !== undefined ? { ui } : {}), html: view.page ?? '' };
}

/** The tool's `view` and `visibility` as its model fields and its wire `_meta.ui` (beside any other `_meta`). */
export function withViewLink(model: ToolModel, tool: JsonObject): ToolModel {
  const view = typeof tool['view'] === 'string' ? tool['view'] : undefined;
  const visibility = Array.isArray(tool['visibility']) ? (tool['visibility'].map(String) as ToolVisibility[]) : undefined;
  if (view === undefined && visibility === undefined) return model;
  const ui: JsonObject = {};
  if (view !== undefined) ui['resourceUri'] = view;
  // Written in a fixed order, so the wire never depends on how the manifest listed them.
  if (visibility !== undefined) ui['visibility'] = (['model', 'app'] as const).filter((v) => visibility.includes(v));
  const meta = model.wire['_meta'];
  const wire = { ...model.wire, _meta: { ...(typeof meta === 'object' && meta !== null ? meta : {}), ui } };
  return {
    ...model,
    wire,
    ...(view !== undefined ? { view } : {}),
    ...(visibility !== undefined ? { visibility: ui['visibility'] as ToolVisibility[] } : {}),
  };
}


function uiOf(tool: ToolModel): JsonObject {
  const meta = tool.wire['_meta'];
  const ui = typeof meta === 'object' && meta !== null ? (meta as JsonObject)['ui'] : undefined;
  return typeof ui === 'object' && ui !== null ? (ui as JsonObject) : {};
}

/** The view a tool links to: from the manifest, or from `_meta.ui` of a live server's or a snapshot's entry. */
export function viewOfTool(tool: ToolModel): string | undefined {
  if (tool.view !== undefined) return tool.view;
  const uri = uiOf(tool)['resourceUri'];
  return typeof uri === 'string' ? uri : undefined;
}

/** Whether views may call the tool, read as `viewOfTool` reads the link. */
export function callableFromViews(tool: ToolModel): boolean {
  const visibility = tool.visibility ?? uiOf(tool)['visibility'];
  return !Array.isArray(visibility) || visibility.includes('app');
}

/** Whether the model sees the tool (a host without the extension sees only these). */
export function visibleToModelOf(tool: ToolModel): boolean {
  const visibility = tool.visibility ?? uiOf(tool)['visibility'];
  return !Array.isArray(visibility) || visibility.includes('model');
}
