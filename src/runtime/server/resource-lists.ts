/**
 * Resources that come and go: `resources/list` built on each request from the manifest's static
 * resources and the `list` callbacks of templates (paged like every list), and the count of
 * subscribers per URI behind the subscribe/unsubscribe hooks.
 */
import type {
  JsonObject,
  ListedResource,
  ResourceListHandler,
  ResourceSubscriptionHooks,
  ServerDefinition,
  ServerHandlers,
} from '../api.js';
import { Context } from './context.js';
import { isObject, type RequestId } from '../protocol/jsonrpc.js';
import { WireEntry, cursorOffset, invalidCursor, pageOf } from './lists.js';
import { invoke, isThenable, metaOf } from './method-common.js';
import type { Outbound } from './outbound.js';
import type { Session } from './session.js';
import { compileUriTemplate, type UriTemplateMatcher } from '../protocol/uri-template.js';
import { RESOURCES_LIST } from '../protocol/methods.js';

interface ListedTemplate {
  readonly template: string;
  readonly matcher: UriTemplateMatcher;
  readonly list: ResourceListHandler;
}

export class ResourceLists {
  /** Templates whose resources a handler lists, in manifest order. */
  readonly listed: readonly ListedTemplate[];
  private readonly subscribers = new Map<string, number>();
  private readonly hooks: ResourceSubscriptionHooks | undefined;
  private readonly log: (line: string) => void;

  constructor(definition: ServerDefinition, handlers: ServerHandlers, log: (line: string) => void) {
    const known = new Set(definition.resourceTemplates.map((t) => t['uriTemplate']));
    this.listed = (definition.listedTemplates ?? []).map((template) => {
      if (!known.has(template))
        throw new Error(
          `listedTemplates names ${template}, which is not a resource template of the definition`,
        );
      const list =
        handlers.resourceLists !== undefined && Object.hasOwn(handlers.resourceLists, template)
          ? handlers.resourceLists[template]
          : undefined;
      if (typeof list !== 'function')
        throw new Error(
          `No list handler for resource template ${template} (handlers.resourceLists)`,
        );
      return { template, matcher: compileUriTemplate(template), list };
    });
    this.hooks = handlers.resourceSubscriptions;
    this.log = log;
  }

  /** A session or listen stream subscribed to `uri`; the first one starts the watch. */
  watch(uri: string): void {
    const count = this.subscribers.get(uri) ?? 0;
    this.subscribers.set(uri, count + 1);
    if (count === 0) this.callHook('subscribe', uri);
  }

  /** A subscriber of `uri` left; the last one stops the watch. */
  unwatch(uri: string): void {
    const count = this.subscribers.get(uri);
    if (count === undefined) return;
    if (count > 1) {
      this.subscribers.set(uri, count - 1);
      return;
    }
    this.subscribers.delete(uri);
    this.callHook('unsubscribe', uri);
  }

  private callHook(which: 'subscribe' | 'unsubscribe', uri: string): void {
    const hook = this.hooks?.[which];
    if (hook === undefined) return;
    const failed = (error: unknown): void =>
      this.log(
        `The resource ${which} hook failed for ${uri}: ${error instanceof Error ? error.message : String(error)}`,
      );
    try {
      const result = hook.call(this.hooks, uri);
      if (isThenable(result)) result.then(undefined, failed);
    } catch (error) {
      failed(error);
    }
  }
}

/** `resources/list` with listed templates: static entries, then each template's current resources. */
export function listDynamicResources(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const offset = cursorOffset('resources', params['cursor']);
  if (offset === undefined) {
    out.respond(invalidCursor(idText, RESOURCES_LIST));
    return;
  }
  const core = session.core;
  const context = new Context(session, id, idText, metaOf(params), out);
  const encode = (lists: unknown): string => {
    const entries: WireEntry[] = [...core.resourcePages.entries];
    (lists as unknown[]).forEach((list, i) =>
      entries.push(
        ...checkedEntries(core.resourceLists.listed[i]!, list, core.log).map(WireEntry.ofValue),
      ),
    );
    return pageOf('resources', entries, offset, core.resourcePages.pageSize);
  };
  invoke(
    session,
    context,
    () => {
      const lists = core.resourceLists.listed.map((t) => t.list(context));
      return lists.some(isThenable) ? Promise.all(lists) : lists;
    },
    encode,
  );
}

/** A list handler's entries that a client could read back through the template; the rest is logged and left out. */
function checkedEntries(
  template: ListedTemplate,
  list: unknown,
  log: (line: string) => void,
): ListedResource[] {
  if (!Array.isArray(list))
    throw new Error(`The list handler of resource template ${template.template} returned no array`);
  const kept: ListedResource[] = [];
  for (const entry of list as unknown[]) {
    if (
      isObject(entry) &&
      typeof entry['uri'] === 'string' &&
      typeof entry['name'] === 'string' &&
      template.matcher.match(entry['uri']) !== undefined
    ) {
      kept.push(entry as ListedResource);
    } else {
      log(
        `The list handler of resource template ${template.template} returned an entry left out of resources/list (it needs a string name and a uri the template matches): ${JSON.stringify(entry)?.slice(0, 200)}`,
      );
    }
  }
  return kept;
}
