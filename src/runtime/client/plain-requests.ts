/**
 * Requests other than `tools/call` as generated clients make them: any method with the call's
 * `_meta` and log level (call-options.ts), every page of a list, `ping`, and the expansion of a
 * resource template's URI.
 */
import type { JsonObject } from '../api.js';
import { prepareParams, requestOptions, type CallOptions } from './call-options.js';
import { itemsOf, listPagesCached, type CacheBinding } from './list-cache.js';
import { STATELESS_REVISION } from './negotiation.js';
import type { ClientSession, RequestOptions } from './session.js';
import { PING } from '../protocol/methods.js';

/** `ping`: the stateful revisions have it; 2026-07-28 does not, and says so instead of sending it. */
export async function ping(session: ClientSession, options: CallOptions = {}): Promise<void> {
  if (session.stateless)
    throw new Error(
      `ping does not exist in protocol revision ${STATELESS_REVISION} (this session speaks it); any request shows the server is there`,
    );
  await session.request(PING, await prepareParams(session, {}, options), requestOptions(options));
}

/** Any request with the call's `_meta` and log level (call-options.ts). */
export async function requestWith(
  session: ClientSession,
  method: string,
  params: JsonObject,
  options: CallOptions = {},
): Promise<JsonObject> {
  return session.request(
    method,
    await prepareParams(session, params, options),
    requestOptions(options),
  );
}

/** Every page of a list method, concatenated; through the connection's list cache when it has one. */
export async function listAll(
  session: ClientSession,
  method: string,
  field: string,
  options: CallOptions = {},
  cache?: CacheBinding,
): Promise<JsonObject[]> {
  const params = await prepareParams(session, {}, options);
  const request: RequestOptions = requestOptions(options);
  if (cache !== undefined)
    return itemsOf(await listPagesCached(session, cache, method, request, params), field);
  const pages: JsonObject[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const result = await session.request(
      method,
      cursor === undefined ? params : { ...params, cursor },
      request,
    );
    pages.push(result);
    const next = result['nextCursor'];
    cursor = typeof next === 'string' && next !== '' && !seen.has(next) ? next : undefined;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return itemsOf(pages, field);
}

/** Expands a level-1 (`{name}`) / reserved (`{+name}`) URI template. */
export function expandUriTemplate(
  template: string,
  variables: Readonly<Record<string, string>>,
): string {
  return template.replace(/\{(\+?)([^{}]+)\}/g, (_, reserved: string, name: string) => {
    const value = Object.hasOwn(variables, name) ? (variables[name] as string) : '';
    return reserved === '+' ? encodeURI(value) : encodeURIComponent(value);
  });
}
