/**
 * What the client does when the app gives up on a request (its `signal` aborts or `timeoutMs`
 * passes). How the server is told depends on the transport and the revision, and each transport
 * implements `ClientTransport.cancel` accordingly:
 * - stdio, every revision: `notifications/cancelled` with the request's id (one shared channel,
 *   nothing else to close).
 * - Streamable HTTP at 2026-07-28: the request's response stream is closed; that is the signal, and
 *   no notification is sent (the revision has no client notifications over HTTP).
 * - Streamable HTTP and legacy HTTP+SSE at the stateful revisions: `notifications/cancelled`, then
 *   the request's stream is no longer read (nor resumed).
 *
 * Many calls often share one AbortSignal (a page or a job cancelling everything it started): the
 * session registers one `abort` listener per signal however many calls wait on it, so Node never
 * warns about a listener leak.
 */
import { notificationMessage, type RequestId } from '../protocol/jsonrpc.js';
import { CANCELLED } from '../protocol/methods.js';

/** The `notifications/cancelled` message for request `id`. */
export function cancelledNotification(id: RequestId, reason: string): string {
  return notificationMessage(CANCELLED, JSON.stringify({ requestId: id, reason }));
}

/** Each signal's one listener and the callbacks behind it. */
interface Waiters {
  readonly callbacks: Set<() => void>;
  readonly fire: () => void;
}
const waiting = new WeakMap<AbortSignal, Waiters>();

/**
 * Calls `callback` once when `signal` aborts; the returned function stops waiting. However many
 * callers wait on one signal, it carries a single `abort` listener, removed when the last stops.
 */
export function whenAborted(signal: AbortSignal, callback: () => void): () => void {
  let waiters = waiting.get(signal);
  if (waiters === undefined) {
    const callbacks = new Set<() => void>();
    const fire = (): void => {
      waiting.delete(signal);
      for (const waiter of [...callbacks]) waiter();
    };
    waiters = { callbacks, fire };
    waiting.set(signal, waiters);
    signal.addEventListener('abort', fire, { once: true });
  }
  const entry = waiters;
  entry.callbacks.add(callback);
  return () => {
    if (!entry.callbacks.delete(callback) || entry.callbacks.size > 0) return;
    signal.removeEventListener('abort', entry.fire);
    if (waiting.get(signal) === entry) waiting.delete(signal);
  };
}
