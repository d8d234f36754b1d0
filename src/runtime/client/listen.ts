/**
 * `listen(filter, onChange)`: the app names the changes it wants (the 2026-07-28
 * `SubscriptionFilter`: list changes of tools, prompts, resources, updates of resource URIs) and gets
 * them as calls of `onChange`, in either era, until it calls the returned `stop`.
 *
 * - 2026-07-28: one `subscriptions/listen` request (subscriptions.ts); resolves once the server
 *   acknowledged it.
 * - Stateful revisions: the server sends list changes to the session unasked, so they are picked out
 *   of its notifications; `resourceSubscriptions` sends `resources/subscribe` per URI (and
 *   `resources/unsubscribe` on stop). Resolves once every subscription is confirmed.
 */
import type { JsonObject } from '../api.js';
import type { CallOptions } from './call-options.js';
import { requestOptions } from './call-options.js';
import type { ClientSession } from './session.js';
import {
  PROMPTS_LIST_CHANGED,
  RESOURCES_LIST_CHANGED,
  RESOURCES_SUBSCRIBE,
  RESOURCES_UNSUBSCRIBE,
  RESOURCES_UPDATED,
  TOOLS_LIST_CHANGED,
} from '../protocol/methods.js';

/** Which changes to hear about (the 2026-07-28 `SubscriptionFilter`). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: readonly string[];
}

/** One change: a list-changed notification, or `notifications/resources/updated` with its `uri`. */
export interface ChangeNotification {
  method: string;
  params: JsonObject;
}

/** Ends the listening; resolves once the server was told (where it must be). */
export type StopListening = () => Promise<void>;

/** Which filter flag admits each notification. */
const FLAG_OF: Readonly<
  Record<string, 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'>
> = {
  [TOOLS_LIST_CHANGED]: 'toolsListChanged',
  [PROMPTS_LIST_CHANGED]: 'promptsListChanged',
  [RESOURCES_LIST_CHANGED]: 'resourcesListChanged',
};
const UPDATED = RESOURCES_UPDATED;

export function admits(filter: ListenFilter, method: string, params: JsonObject): boolean {
  const flag = FLAG_OF[method];
  if (flag !== undefined) return filter[flag] === true;
  return (
    method === UPDATED &&
    typeof params['uri'] === 'string' &&
    (filter.resourceSubscriptions ?? []).includes(params['uri'])
  );
}

export async function listen(
  session: ClientSession,
  filter: ListenFilter,
  onChange: (change: ChangeNotification) => void,
  options: Pick<CallOptions, 'signal' | 'timeoutMs'> = {},
): Promise<StopListening> {
  const deliver = (method: string, params: JsonObject): void => {
    // The app's callback must not break the session's message routing.
    try {
      onChange({ method, params });
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  };
  return session.stateless
    ? listenStateless(session, filter, deliver, options)
    : listenStateful(session, filter, deliver, options);
}

async function listenStateless(
  session: ClientSession,
  filter: ListenFilter,
  deliver: (method: string, params: JsonObject) => void,
  options: Pick<CallOptions, 'signal' | 'timeoutMs'>,
): Promise<StopListening> {
  const controller = new AbortController();
  const subscription = session.listen(filterJson(filter), { signal: controller.signal });
  const pumping = (async () => {
    for await (const notification of subscription)
      if (admits(filter, notification.method, notification.params))
        deliver(notification.method, notification.params);
  })();
  pumping.catch(() => {});
  const stop: StopListening = async () => {
    controller.abort(new Error('The app stopped listening'));
    await subscription.ended.catch(() => {});
    await pumping.catch(() => {});
  };
  // The acknowledgment may never come (a refusal, a lost connection): the call's own signal and timeout bound the wait.
  const waiting = new Promise<never>((_, reject) => {
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              reject(
                new Error(
                  `subscriptions/listen was not acknowledged within ${options.timeoutMs} ms`,
                ),
              ),
            options.timeoutMs,
          );
    subscription.ended.finally(() => clearTimeout(timer)).catch(() => {});
    options.signal?.addEventListener(
      'abort',
      () =>
        reject(
          options.signal?.reason instanceof Error
            ? options.signal.reason
            : new Error('The request was aborted'),
        ),
      { once: true },
    );
  });
  try {
    await Promise.race([subscription.acknowledged, waiting]);
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

async function listenStateful(
  session: ClientSession,
  filter: ListenFilter,
  deliver: (method: string, params: JsonObject) => void,
  options: Pick<CallOptions, 'signal' | 'timeoutMs'>,
): Promise<StopListening> {
  const uris = [...new Set(filter.resourceSubscriptions ?? [])];
  const unobserve = session.observe((method, params) => {
    if (admits(filter, method, params)) deliver(method, params);
  });
  const subscribed: string[] = [];
  const unsubscribe = async (): Promise<void> => {
    for (const uri of subscribed.splice(0))
      await session.request(RESOURCES_UNSUBSCRIBE, { uri }).catch(() => {});
  };
  try {
    for (const uri of uris) {
      await session.request(RESOURCES_SUBSCRIBE, { uri }, requestOptions(options));
      subscribed.push(uri);
    }
  } catch (error) {
    unobserve();
    await unsubscribe();
    throw error;
  }
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    unobserve();
    await unsubscribe();
  };
}

/** The filter as sent: only the members given. */
function filterJson(filter: ListenFilter): JsonObject {
  const json: JsonObject = {};
  for (const flag of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const)
    if (filter[flag] !== undefined) json[flag] = filter[flag];
  if (filter.resourceSubscriptions !== undefined)
    json['resourceSubscriptions'] = [...filter.resourceSubscriptions];
  return json;
}
