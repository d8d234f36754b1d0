/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): a host that declares it in
 * `capabilities.extensions` (in `initialize`, or in each 2026-07-28 request's `_meta`) sees tools
 * as the server wrote them. Any other host gets the text-only fallback the extension asks for:
 * tools without `_meta.ui`, and no tool meant for views alone. Servers without views skip all this.
 */
import type { JsonObject } from '../../api.js';
import { isObject } from '../../protocol/jsonrpc.js';
import { ListPages, WireEntry } from '../../server/lists.js';
import type { ServerCore } from '../../server/server.js';
import type { Session } from '../../server/session.js';

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** A generated server with views declares the extension among its capabilities. */
function servesViews(core: ServerCore): boolean {
  const extensions = core.definition.capabilities['extensions'];
  return isObject(extensions) && isObject(extensions[UI_EXTENSION]);
}

/** The host declared the extension, with our mime type among its `mimeTypes` (or none listed). */
export function hostShowsViews(session: Session): boolean {
  const extensions = session.clientCapabilities['extensions'];
  const settings = isObject(extensions) ? extensions[UI_EXTENSION] : undefined;
  if (!isObject(settings)) return false;
  const types = settings['mimeTypes'];
  return !Array.isArray(types) || types.includes(VIEW_MIME_TYPE);
}

function uiOf(tool: JsonObject): JsonObject | undefined {
  const meta = tool['_meta'];
  const ui = isObject(meta) ? meta['ui'] : undefined;
  return isObject(ui) ? ui : undefined;
}

/** A tool whose visibility leaves the model out is for views only. */
export function onlyForViews(tool: JsonObject): boolean {
  const visibility = uiOf(tool)?.['visibility'];
  return Array.isArray(visibility) && !visibility.includes('model');
}

/** The entry without `_meta.ui` (and without `_meta` when nothing else was in it). */
function withoutUi(tool: JsonObject): JsonObject {
  const { _meta: meta, ...rest } = tool;
  if (!isObject(meta)) return tool;
  const { ui: _ui, ...others } = meta;
  return Object.keys(others).length === 0 ? rest : { ...rest, _meta: others };
}

const fallbacks = new WeakMap<ListPages, ListPages>();

/** The tools/list pages this session gets: as written, or the fallback (made once per list). */
export function toolPagesFor(session: Session, pages: ListPages): ListPages {
  if (!servesViews(session.core) || hostShowsViews(session)) return pages;
  let fallback = fallbacks.get(pages);
  if (fallback === undefined) {
    const entries = pages.entries
      .filter((entry) => !onlyForViews(entry.value))
      .map((entry) =>
        uiOf(entry.value) === undefined
          ? entry
          : WireEntry.derived(() => withoutUi(entry.value), entry.name as string),
      );
    fallback = new ListPages(pages.field, entries, pages.pageSize);
    fallbacks.set(pages, fallback);
  }
  return fallback;
}

/** Why a call is refused: a tool for views alone, called by a host that shows none. */
export function viewOnlyRefusal(session: Session, tool: WireEntry): string | undefined {
  // Servers without views never parse the entry.
  if (!servesViews(session.core) || hostShowsViews(session) || !onlyForViews(tool.value))
    return undefined;
  return `is only for views (${UI_EXTENSION}); this client did not declare the extension`;
}
