/**
 * What a server core derives once from its definition, handlers and options: the limits, the
 * methods it offers, the serverInfo each revision sees and the caching hints of 2026-07-28 results.
 */
import type { JsonObject, ServerDefinition, ServerHandlers, ServerLimits } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import {
  PROMPTS_LIST,
  RESOURCES_LIST,
  RESOURCES_READ,
  RESOURCES_TEMPLATES_LIST,
  SERVER_DISCOVER,
  STATEFUL_REVISIONS,
  STATELESS_REVISION,
  TOOLS_LIST,
  type Offer,
} from '../protocol/methods.js';

/** The limits a server has unless its options say otherwise (documented in README.md). */
export const DEFAULT_LIMITS: Readonly<Required<ServerLimits>> = Object.freeze({
  maxMessageBytes: 4 * 1024 * 1024,
  maxDepth: 64,
  maxInFlight: 64,
  handlerTimeoutMs: 5 * 60 * 1000,
});

/** Defaults of the HTTP limits in `HttpOptions` (here, so reading them does not load node:http). */
export const DEFAULT_HTTP_LIMITS = Object.freeze({
  maxSessions: 1000,
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxUnsentBytes: 8 * 1024 * 1024,
});

/** The protocol revisions this runtime speaks, newest first. */
export const RUNTIME_PROTOCOL_VERSIONS: readonly string[] = [
  STATELESS_REVISION,
  ...[...STATEFUL_REVISIONS].reverse(),
];

/** What the definition and handlers offer, in the method table's `offer` terms (`listen` is the stateless adapter's). */
export function offeredBy(
  definition: ServerDefinition,
  handlers: ServerHandlers,
  tasksOffered: boolean,
): Set<Offer> {
  const capabilities = definition.capabilities;
  const resources = capabilities['resources'];
  const offered = new Set<Offer>(['always']);
  if (isObject(capabilities['tools'])) offered.add('tools');
  if (isObject(resources)) offered.add('resources');
  if (isObject(resources) && resources['subscribe'] === true) offered.add('resources.subscribe');
  if (isObject(capabilities['prompts'])) offered.add('prompts');
  if (isObject(capabilities['logging'])) offered.add('logging');
  if (
    isObject(capabilities['completions']) ||
    handlers.complete !== undefined ||
    handlers.completions !== undefined
  )
    offered.add('completions');
  if (tasksOffered) offered.add('tasks');
  return offered;
}

export function checkLimits(given: ServerLimits | undefined): Readonly<Required<ServerLimits>> {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ServerLimits)[]) {
    const value = given?.[key];
    if (value === undefined) continue;
    const least = key === 'handlerTimeoutMs' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < least)
      throw new Error(
        `limits.${key} must be an integer of at least ${least}, got ${String(value)}`,
      );
    limits[key] = value;
  }
  return Object.freeze(limits);
}

/** `description`, `websiteUrl` and `icons` joined `Implementation` in 2025-11-25; older revisions get the rest. */
export function serverInfoFor(info: ServerDefinition['serverInfo'], version: string): JsonObject {
  if (version >= '2025-11-25') return info;
  const { description: _d, websiteUrl: _w, icons: _i, ...older } = info;
  return older;
}

/** The caching hints of each cacheable 2026-07-28 result, from the definition (default 0 / public; reads private). */
export function cacheFields(definition: ServerDefinition): Map<string, string> {
  const hint = (
    method: string,
    list: keyof NonNullable<ServerDefinition['caching']> | undefined,
    scope: string,
  ): [string, string] => {
    const given = list === undefined ? undefined : definition.caching?.[list];
    const ttlMs = given?.ttlMs ?? 0;
    const cacheScope = given?.cacheScope ?? scope;
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 0)
      throw new Error(
        `caching.${String(list)}.ttlMs must be an integer of at least 0, got ${String(ttlMs)}`,
      );
    if (cacheScope !== 'public' && cacheScope !== 'private')
      throw new Error(`caching.${String(list)}.cacheScope must be "public" or "private"`);
    return [method, `"ttlMs":${ttlMs},"cacheScope":"${cacheScope}",`];
  };
  return new Map([
    hint(SERVER_DISCOVER, undefined, 'public'),
    hint(TOOLS_LIST, 'tools', 'public'),
    hint(PROMPTS_LIST, 'prompts', 'public'),
    hint(RESOURCES_LIST, 'resources', 'public'),
    hint(RESOURCES_TEMPLATES_LIST, 'resourceTemplates', 'public'),
    hint(RESOURCES_READ, undefined, 'private'),
  ]);
}

/** A change announced through `Notifier`, as every listening connection receives it. */
export interface ChangeEvent {
  readonly method: string;
  /** The SubscriptionFilter field that opts in to it (2026-07-28 `subscriptions/listen`). */
  readonly filter:
    'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged' | 'resourceSubscriptions';
  readonly uri?: string;
}
