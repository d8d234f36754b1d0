/// <reference types="node" />
/**
 * Resumption of a stream that lives in another process (or has completed there), through an
 * event store that can watch streams (`EventStore.watchStream`, e.g. Redis).
 */
import type { HttpResponseOut } from './http-exchange.js';
import type { EventStore } from './event-store.js';
import { IDLE_STREAM_RETRY_MS, sseEvent } from './sse-event.js';
import { isOpen, writeLive } from './http-reply.js';

export class StreamRelay {
  private readonly eventStore: EventStore;
  private readonly idleStreamTimeout: number;
  /** A client this far behind on a live event has its connection cut (`writeLive`). */
  private readonly maxUnsentBytes: number;
  /** Streams of other processes relayed here, by stream id: how to end the connection carrying each. */
  private readonly relays = new Map<string, () => void>();

  constructor(eventStore: EventStore, idleStreamTimeout: number, maxUnsentBytes: number) {
    this.maxUnsentBytes = maxUnsentBytes;
    this.eventStore = eventStore;
    this.idleStreamTimeout = idleStreamTimeout;
  }

  /** The session ended: the streams of it relayed here end too (stream ids start with the session id). */
  endSession(sessionId: string): void {
    for (const [streamId, end] of [...this.relays]) if (streamId.startsWith(sessionId + '/')) end();
  }

  /**
   * A stream another process is producing (or has completed), through a shared store: what was
   * stored, then each event as it is stored, until the stream completes. Quiet for the idle stream
   * timeout (that process may be gone), it ends with a retry hint, and the client resumes again.
   */
  async relay(
    streamId: string,
    lastEventId: string,
    missed: readonly [string, string][],
    res: HttpResponseOut,
  ): Promise<void> {
    const written = new Set<string>();
    let newest = lastEventId;
    let ended = false;
    let stop: (() => void) | undefined;
    let idle: NodeJS.Timeout | undefined;
    // The catch-up is written at once (the store bounds it); a live event waits for a slow client
    // only up to `maxUnsentBytes`.
    const write = (eventId: string, message: string, live = false): void => {
      if (ended || written.has(eventId) || !isOpen(res)) return;
      written.add(eventId);
      newest = eventId;
      const chunk = sseEvent(eventId, message === '' ? undefined : message);
      if (live) writeLive(res, chunk, this.maxUnsentBytes);
      else res.write(chunk);
    };
    const end = (tail: string): void => {
      if (ended) return;
      ended = true;
      clearTimeout(idle);
      stop?.();
      if (this.relays.get(streamId) === takenOver) this.relays.delete(streamId);
      if (isOpen(res)) res.end(tail);
    };
    // A stream has one connection: a second resumption of it takes over from the first.
    const takenOver = (): void => end('');
    this.relays.get(streamId)?.();
    this.relays.set(streamId, takenOver);
    const touch = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => end(`retry: ${IDLE_STREAM_RETRY_MS}\n\n`), this.idleStreamTimeout);
      idle.unref?.();
    };
    res.on('close', () => end(''));
    for (const [eventId, message] of missed) write(eventId, message);
    // Live events wait here until the catch-up below is written, so the stream stays in order.
    let early: [string, string][] | undefined = [];
    let endedEarly = false;
    const watch = await this.eventStore.watchStream!(streamId, {
      event: (eventId, message) => {
        if (early !== undefined) early.push([eventId, message]);
        else {
          write(eventId, message, true);
          touch();
        }
      },
      ended: () => {
        if (early !== undefined) endedEarly = true;
        else end('');
      },
    });
    stop = watch.stop;
    if (ended) {
      stop(); // the client left while the subscription was being made
      return;
    }
    // Events stored between the first replay and the subscription.
    await this.eventStore.replayEventsAfter(newest, write);
    for (const [eventId, message] of early) write(eventId, message);
    early = undefined;
    if (watch.complete || endedEarly) end('');
    else touch();
  }
}
