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
}

interface StoredEvent {
  readonly streamId: string;
  readonly message: string;
}

/** Keeps the newest `capacity` events of all streams in memory, for one process. */
export class InMemoryEventStore implements EventStore {
  private readonly events = new Map<string, StoredEvent>();
  private readonly capacity: number;
  private lastId = 0;

  constructor(capacity = 10_000) {
    this.capacity = capacity;
  }

  storeEvent(streamId: string, message: string): Promise<string> {
    const eventId = `${streamId}:${++this.lastId}`;
    this.events.set(eventId, { streamId, message });
    if (this.events.size > this.capacity) this.events.delete(this.events.keys().next().value!);
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
