/** The types of lists that change at run time (tools, prompts, listed resources), re-exported by `api.ts`. */
import type { JsonObject, RequestContext } from '../api.js';

/**
 * Turns manifest tools (or prompts) on and off at run time. `tools/list` leaves out what is
 * disabled or filtered out, and `tools/call` refuses it with -32602; every change that alters the
 * list announces `notifications/tools/list_changed` (`prompts/…` for prompts) by itself.
 */
export interface ListControl<Name extends string = string> {
  /** Serves `name` again; throws for a name the manifest does not list. */
  enable(name: Name): void;
  /** Leaves `name` out of every list and refuses its calls; throws for a name the manifest does not list. */
  disable(name: Name): void;
  isEnabled(name: Name): boolean;
  /**
   * A per-request filter (undefined removes it): an enabled entry is served to a request only when
   * it returns true. It runs for each list request and each call, with that request's context, so
   * it must be quick and synchronous. Changing the filter announces a list change.
   */
  setFilter(filter: ListFilter<Name> | undefined): void;
}

/** Decides whether one enabled tool or prompt is served to the request behind `context`. */
export type ListFilter<Name extends string = string> = (
  name: Name,
  context: RequestContext,
) => boolean;

/** One entry of `resources/list`, as a `ResourceListHandler` returns it. */
export interface ListedResource extends JsonObject {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/**
 * The resources a template currently has (the manifest's `list: true`), each read through the
 * template's handler. Called on every `resources/list` request; the runtime pages the whole list.
 */
export type ResourceListHandler<Context = RequestContext> = (
  context: Context,
) => readonly ListedResource[] | Promise<readonly ListedResource[]>;

/**
 * Called when the first subscriber of a URI appears (`resources/subscribe` or a 2026-07-28
 * `subscriptions/listen`), and when its last one leaves (unsubscribe, end of session or stream),
 * counted over this process's clients: a handler starts and stops watching there.
 */
export interface ResourceSubscriptionHooks {
  subscribe?(uri: string): void | Promise<void>;
  unsubscribe?(uri: string): void | Promise<void>;
}

/** The 2026-07-28 caching hints of one list (`ttlMs`, `cacheScope`). */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}
