/**
 * `subscriptions/listen` (2026-07-28) for apps: one long-lived request whose notifications, told
 * apart by `_meta`'s subscription id, are handed out in order as an async iterable.
 *
 * It ends when the app's signal aborts or the app leaves its `for await` loop (the request is
 * cancelled: HTTP closes its stream, stdio sends `notifications/cancelled`), when the server ends it
 * gracefully (a result), or when it breaks (the connection closes, the server refuses or tears it
 * down): then the iteration throws.
 */
import type { JsonObject } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import { whenAborted } from './cancellation.js';
import type { RequestOptions } from './session-options.js';
import { SUBSCRIPTIONS_ACKNOWLEDGED } from '../protocol/methods.js';

/** One notification delivered on a subscription. */
export interface SubscriptionNotification {
  method: string;
  params: JsonObject;
}

/** How a subscription ended without failing: the app cancelled it, or the server closed it. */
export type SubscriptionEnd = 'cancelled' | 'completed';

export interface Subscription extends AsyncIterable<SubscriptionNotification> {
  /** The filter the server agreed to honour (its acknowledgment); rejects if it ends before acknowledging. */
  readonly acknowledged: Promise<JsonObject>;
  /** Settles when the subscription is over: resolves with how it ended, rejects with why it broke. */
  readonly ended: Promise<SubscriptionEnd>;
}

/** What `listen` needs of the session: one request, with its subscription's notifications routed back. */
export type ListenRequest = (params: JsonObject, options: RequestOptions) => Promise<JsonObject>;

const ACKNOWLEDGED = SUBSCRIPTIONS_ACKNOWLEDGED;

export function openSubscription(
  request: ListenRequest,
  notifications: JsonObject,
  options: { signal?: AbortSignal } = {},
): Subscription {
  // Ours, so that leaving the loop can cancel; the app's signal aborts it too.
  const controller = new AbortController();
  const stopFollowing =
    options.signal === undefined
      ? undefined
      : whenAborted(options.signal, () => controller.abort(options.signal?.reason));
  if (options.signal?.aborted) controller.abort(options.signal.reason);

  const queue: SubscriptionNotification[] = [];
  /** Readers waiting for the next notification or the end. */
  const sleepers: (() => void)[] = [];
  const wake = (): void => {
    for (const sleeper of sleepers.splice(0)) sleeper();
  };
  let outcome: { end: SubscriptionEnd } | { error: Error } | undefined;
  let acknowledge!: (filter: JsonObject) => void;
  let refuse!: (error: Error) => void;
  const acknowledged = new Promise<JsonObject>((resolve, reject) => {
    acknowledge = resolve;
    refuse = reject;
  });
  // The app may never look at it; a rejection here must not be reported as unhandled.
  acknowledged.catch(() => {});

  const settle = (result: { end: SubscriptionEnd } | { error: Error }): SubscriptionEnd => {
    outcome ??= result;
    stopFollowing?.();
    refuse(
      'error' in result
        ? result.error
        : new Error(`The subscription ended (${result.end}) before the server acknowledged it`),
    );
    wake();
    if ('error' in outcome) throw outcome.error;
    return outcome.end;
  };

  const ended = request(
    { notifications },
    {
      signal: controller.signal,
      onSubscriptionNotification: (method, params) => {
        if (outcome !== undefined) return;
        if (method === ACKNOWLEDGED) {
          acknowledge(isObject(params['notifications']) ? params['notifications'] : {});
          return;
        }
        queue.push({ method, params });
        wake();
      },
    },
  ).then(
    () => settle({ end: 'completed' }),
    (error: Error) => settle(controller.signal.aborted ? { end: 'cancelled' } : { error }),
  );
  ended.catch(() => {});

  return {
    acknowledged,
    ended,
    [Symbol.asyncIterator](): AsyncIterator<SubscriptionNotification> {
      return {
        next: async (): Promise<IteratorResult<SubscriptionNotification>> => {
          while (queue.length === 0 && outcome === undefined)
            await new Promise<void>((resolve) => sleepers.push(resolve));
          const next = queue.shift();
          if (next !== undefined) return { value: next, done: false };
          if (outcome !== undefined && 'error' in outcome) throw outcome.error;
          return { value: undefined, done: true };
        },
        return: async (): Promise<IteratorResult<SubscriptionNotification>> => {
          // Leaving the loop early: the subscription is no longer wanted.
          if (outcome === undefined) controller.abort(new Error('The app stopped listening'));
          await ended.catch(() => {});
          return { value: undefined, done: true };
        },
      };
    },
  };
}
