/// <reference types="node" />
/**
 * The seam for resumable Streamable HTTP streams. Every SSE event of a session's streams is
 * stored before it is written and carries the returned id as its `id:` field, so a client that
 * lost a stream resumes it with `Last-Event-ID` on a GET and receives exactly the events it missed,
 * of that stream only. Implementations for a shared store (Redis: redis-store.ts) plug in here.
 */
export interface EventStore {
  /** Persists one JSON-RPC message (`''` for a priming event) sent on stream `streamId`; resolves with its event id. */
  storeEvent(streamId: string, message: string): Promise<string>;
  /**
   * Sends, in order, the events of the stream `lastEventId` belongs to that came after it;
   * resolves with that stream's id, or undefined when the id is unknown.
   */
  replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: string) => void | Promise<void>,
  ): Promise<string | undefined>;
  /**
   * Optional, for a store several processes share: a stream cut on one process and resumed on
   * another then carries the events the first one goes on producing, live. Marks the stream
   * complete: its last event is stored.
   */
  endStream?(streamId: string): Promise<void>;
  /**
   * Optional, with `endStream`: `watcher` gets each event stored on `streamId` from now on, by any
   * process, and `ended` once the stream is complete. Resolves once watching, with whether the
   * stream was already complete and the function that stops watching.
   */
  watchStream?(
    streamId: string,
    watcher: StreamWatcher,
  ): Promise<{ complete: boolean; stop(): void }>;
}

export interface StreamWatcher {
  event(eventId: string, message: string): void;
  ended(): void;
}

interface StoredEvent {
  readonly streamId: string;
  readonly message: string;
}

/** How much an `InMemoryEventStore` keeps: the newest events within both limits. */
export interface InMemoryEventStoreLimits {
  /** Events at most. Default 10 000. */
  maxEvents?: number;
  /**
   * Characters of messages at most (about bytes: JSON text is mostly ASCII). Default 64 Mi. The
   * newest event is always kept, however large: its stream may still need it.
   */
  maxChars?: number;
}

/**
 * Keeps the newest events of all streams in memory, for one process: at most `maxEvents`, and at
 * most `maxChars` of messages, so that large results sent on streams (a session's calls with
 * progress) cannot pile up without end. A resumption from an event already dropped gets 400.
 */
export class InMemoryEventStore implements EventStore {
  private readonly events = new Map<string, StoredEvent>();
  private readonly maxEvents: number;
  private readonly maxChars: number;
  private chars = 0;
  private lastId = 0;

  /** A number is `maxEvents`, as before the character limit. */
  constructor(limits: InMemoryEventStoreLimits | number = {}) {
    const given: InMemoryEventStoreLimits =
      typeof limits === 'number' ? { maxEvents: limits } : limits;
    this.maxEvents = given.maxEvents ?? 10_000;
    this.maxChars = given.maxChars ?? 64 * 1024 * 1024;
  }

  storeEvent(streamId: string, message: string): Promise<string> {
    const eventId = `${streamId}:${++this.lastId}`;
    this.events.set(eventId, { streamId, message });
    this.chars += message.length;
    while (
      this.events.size > 1 &&
      (this.events.size > this.maxEvents || this.chars > this.maxChars)
    ) {
      const [oldest, event] = this.events.entries().next().value!;
      this.events.delete(oldest);
      this.chars -= event.message.length;
    }
    return Promise.resolve(eventId);
  }

  async replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: string) => void | Promise<void>,
  ): Promise<string | undefined> {
    const last = this.events.get(lastEventId);
    if (last === undefined) return undefined;
    let after = false;
    for (const [eventId, event] of this.events) {
      if (eventId === lastEventId) after = true;
      else if (after && event.streamId === last.streamId) await send(eventId, event.message);
    }
    return last.streamId;
  }
}
