/**
 * An optional cache of list pages (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`) that honours the 2026-07-28 caching hints of each page:
 *
 * - `ttlMs`: a page is served from the cache while `now < received + ttlMs`; 0, a negative or an
 *   absent value (older revisions send none) means it is not kept at all.
 * - `cacheScope`: a `public` page may be served to any connection that shares this cache and reaches
 *   the same server; a `private` page (or one without a valid scope) only to connections of the same
 *   authorization context, which is the connection itself unless the app names a context.
 *
 * Each page is its own entry, keyed by server, method and cursor. A list-changed notification empties
 * that list's entries of that server; a refused cursor empties the list and the walk starts again.
 */
import type { JsonObject } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { ClientSession, RequestOptions } from './session.js';
import {
  PROMPTS_LIST,
  PROMPTS_LIST_CHANGED,
  RESOURCES_LIST,
  RESOURCES_LIST_CHANGED,
  RESOURCES_TEMPLATES_LIST,
  TOOLS_LIST,
  TOOLS_LIST_CHANGED,
} from '../protocol/methods.js';

interface Entry {
  result: JsonObject;
  expires: number;
}

const LIST_OF_NOTIFICATION: Readonly<Record<string, readonly string[]>> = {
  [TOOLS_LIST_CHANGED]: [TOOLS_LIST],
  [PROMPTS_LIST_CHANGED]: [PROMPTS_LIST],
  [RESOURCES_LIST_CHANGED]: [RESOURCES_LIST, RESOURCES_TEMPLATES_LIST],
};

/** Share one between connections to let `public` pages serve them all. */
export class ListCache {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
  }

  /** Forgets every page. */
  clear(): void {
    this.entries.clear();
  }

  /** How many pages are kept now (fresh or not yet evicted). */
  get size(): number {
    return this.entries.size;
  }

  /** @internal A fresh page, public first, else the context's private one. */
  lookup(keys: { public: string; private: string }): JsonObject | undefined {
    for (const key of [keys.public, keys.private]) {
      const entry = this.entries.get(key);
      if (entry === undefined) continue;
      if (this.now() < entry.expires) return entry.result;
      this.entries.delete(key);
    }
    return undefined;
  }

  /** @internal Keeps a page for as long as its hints allow. */
  store(keys: { public: string; private: string }, result: JsonObject): void {
    const ttl = result['ttlMs'];
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) return;
    const key = result['cacheScope'] === 'public' ? keys.public : keys.private;
    this.entries.set(key, { result, expires: this.now() + ttl });
  }

  /** @internal Drops every page of `method` from `server`, both scopes. */
  invalidate(server: string, method: string): void {
    const prefix = `${server}\n${method}\n`;
    for (const key of [...this.entries.keys()])
      if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

/** One connection's view of a cache: the server it reaches and its authorization context. */
export interface CacheBinding {
  cache: ListCache;
  /** The server's location (URL, or command and arguments). */
  server: string;
  /** The authorization context of `private` pages. */
  context: string;
}

/** Binds a cache to a connection and empties the lists the server says changed. */
export function bindListCache(
  session: ClientSession,
  cache: ListCache,
  server: string,
  context: string,
): CacheBinding {
  session.observe((method) => {
    for (const list of LIST_OF_NOTIFICATION[method] ?? []) cache.invalidate(server, list);
  });
  return { cache, server, context };
}

/** Every page of a list method, each from the cache while fresh, else from the server (and kept as its hints allow). */
export async function listPagesCached(
  session: ClientSession,
  binding: CacheBinding,
  method: string,
  options: RequestOptions,
  params: JsonObject = {},
): Promise<JsonObject[]> {
  const pages: JsonObject[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let restarted = false;
  for (;;) {
    const keys = pageKeys(binding, method, cursor);
    let page = binding.cache.lookup(keys);
    if (page === undefined) {
      try {
        page = await session.request(
          method,
          cursor === undefined ? params : { ...params, cursor },
          options,
        );
      } catch (error) {
        // A cursor from a cached page the server no longer accepts: start again from the top, once.
        if (cursor === undefined || restarted) throw error;
        restarted = true;
        binding.cache.invalidate(binding.server, method);
        pages.length = 0;
        seen.clear();
        cursor = undefined;
        continue;
      }
      // Retried input-required requests are never cached; list results are never of that kind, but check.
      if (page['resultType'] === undefined || page['resultType'] === 'complete')
        binding.cache.store(keys, page);
    }
    pages.push(page);
    const next = page['nextCursor'];
    cursor = typeof next === 'string' && next !== '' && !seen.has(next) ? next : undefined;
    if (cursor === undefined) return pages;
    seen.add(cursor);
  }
}

function pageKeys(
  binding: CacheBinding,
  method: string,
  cursor: string | undefined,
): { public: string; private: string } {
  const base = `${binding.server}\n${method}\n${cursor === undefined ? '' : JSON.stringify(cursor)}`;
  return { public: `${base}\npublic`, private: `${base}\nprivate\n${binding.context}` };
}

/** The items of list pages, objects only. */
export function itemsOf(pages: readonly JsonObject[], field: string): JsonObject[] {
  const items: JsonObject[] = [];
  for (const page of pages) {
    const list = page[field];
    if (Array.isArray(list)) for (const item of list) if (isObject(item)) items.push(item);
  }
  return items;
}
