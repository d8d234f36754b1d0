/// <reference types="node" />
/**
 * The resumable SSE streams of Streamable HTTP sessions: each stream's store-then-write chain,
 * priming, polling (`retry:`), the idle timeout of a standalone stream, and resumption with
 * `Last-Event-ID` (replay here, or a relay from another process: http-relay.ts).
 */
import { randomId } from './random-id.js';
import type { HttpResponseOut } from './http-exchange.js';
import type { EventStore } from './event-store.js';
import { StreamRelay } from './http-relay.js';
import { isOpen, sendError, writeLive } from './http-reply.js';
import type { SessionEntry } from './http-sessions.js';
import { TRANSPORT_ERROR } from '../../protocol/jsonrpc.js';
import type { Outbound } from '../../server/outbound.js';
import type { ServerCore } from '../../server/server.js';

import { IDLE_STREAM_RETRY_MS, sseEvent } from './sse-event.js';
export { IDLE_STREAM_RETRY_MS, sseEvent } from './sse-event.js';

/**
 * One logical SSE stream of a session. Its connection (`res`) may come and go: the client may
 * lose it, or the server may close it early for polling; events sent meanwhile are only stored,
 * and a GET with `Last-Event-ID` attaches a new connection after replaying them.
 */
export class SseStream {
  readonly id: string;
  /** The session it belongs to: a failure on the stream ends that session (`SseStreams.failed`). */
  readonly entry: SessionEntry;
  res: HttpResponseOut | undefined = undefined;
  /** The last message has been sent: end the connection after it. */
  complete = false;
  /** Its session ended: nothing is stored or written any more (`SseStreams.closeAll`). */
  closed = false;
  /** Store-then-write chain: events are written in order, each after its storage. */
  chain: Promise<void> = Promise.resolve();
  idleTimer: NodeJS.Timeout | undefined = undefined;
  /** Events the last resumption replayed: their own write step must not send them again. */
  replayed: Set<string> | undefined = undefined;

  constructor(id: string, entry: SessionEntry) {
    this.id = id;
    this.entry = entry;
  }
}

/** Every SSE stream of this transport's sessions goes through here. */
export class SseStreams {
  private readonly core: ServerCore;
  private readonly eventStore: EventStore;
  private readonly idleStreamTimeout: number;
  private readonly relayer: StreamRelay;
  /** A client this far behind on a stream has its connection cut (`writeLive`). */
  readonly maxUnsentBytes: number;
  /** The last resort when a stream's step throws: set by HttpSessions, which ends the session. */
  sessionFailed: (entry: SessionEntry, error: unknown) => void = () => {};

  constructor(
    core: ServerCore,
    eventStore: EventStore,
    idleStreamTimeout: number,
    maxUnsentBytes: number,
  ) {
    this.core = core;
    this.eventStore = eventStore;
    this.idleStreamTimeout = idleStreamTimeout;
    this.maxUnsentBytes = maxUnsentBytes;
    this.relayer = new StreamRelay(eventStore, idleStreamTimeout, maxUnsentBytes);
  }

  /** Replays what the client missed on the stream `lastEventId` belongs to, then carries the rest of it. */
  async resume(entry: SessionEntry, lastEventId: string, res: HttpResponseOut): Promise<void> {
    const missed: [eventId: string, message: string][] = [];
    const streamId = await this.eventStore.replayEventsAfter(lastEventId, (eventId, message) => {
      missed.push([eventId, message]);
    });
    // Event ids are unique per session; a stream of another session is never replayed.
    if (streamId === undefined || !streamId.startsWith(entry.session.id! + '/')) {
      sendError(
        res,
        400,
        TRANSPORT_ERROR,
        'Bad Request: Last-Event-ID names no stream of this session',
      );
      return;
    }
    res.writeHead(200, sseHeaders(entry.session.id));
    // Sent now, not with the first event: a relayed stream may have nothing to send for a while.
    res.flushHeaders();
    const live = entry.streams.get(streamId);
    if (live === undefined) {
      // The stream is complete, or lives in another process.
      if (this.eventStore.watchStream !== undefined) {
        await this.relayer.relay(streamId, lastEventId, missed, res);
        return;
      }
      // Without a shared store to watch: send what is stored and end with a retry hint, so a client
      // still missing its response resumes again for the rest.
      // The connection may have ended meanwhile (the client left, a drain): write nothing then.
      if (!isOpen(res)) return;
      for (const [eventId, message] of missed)
        res.write(sseEvent(eventId, message === '' ? undefined : message));
      res.end(`retry: ${IDLE_STREAM_RETRY_MS}\n\n`);
      return;
    }
    // A stream has one connection: the new one takes over. The replay runs in the stream's write
    // chain, so events queued meanwhile are written after it, and the ones it replayed are skipped.
    const previous = live.res;
    live.res = undefined;
    if (previous !== undefined && isOpen(previous)) previous.end();
    this.step(live, async () => {
      const replayed = new Set<string>();
      await this.eventStore.replayEventsAfter(lastEventId, (eventId, message) => {
        replayed.add(eventId);
        if (isOpen(res)) res.write(sseEvent(eventId, message === '' ? undefined : message));
      });
      live.replayed = replayed;
      // The session ended during the replay: the new connection ends with it.
      if (live.closed) {
        if (isOpen(res)) res.end();
      } else live.res = res;
    });
    res.on('close', () => {
      if (live.res === res) live.res = undefined;
    });
    if (live === entry.standalone) {
      entry.session.standalone = new StandaloneOutbound(this, live);
      this.touchIdle(entry, live);
    }
  }

  /** @internal A new logical stream of the session; its id names the session, so replay can check it. */
  newStream(entry: SessionEntry): SseStream {
    const stream = new SseStream(`${entry.session.id!}/${randomId(9)}`, entry);
    entry.streams.set(stream.id, stream);
    return stream;
  }

  /** @internal */
  attach(entry: SessionEntry, stream: SseStream, res: HttpResponseOut): void {
    if (!res.headersSent) res.writeHead(200, sseHeaders(entry.session.id));
    stream.res = res;
    res.on('close', () => {
      if (stream.res === res) stream.res = undefined;
    });
  }

  /** @internal The priming event: an id the client can resume from, before any message. */
  prime(stream: SseStream): void {
    this.queue(stream, '');
  }

  /** @internal Stores the message, then writes it with its id if the stream has a connection. */
  queue(stream: SseStream, message: string): void {
    // A stream of an ended session takes nothing more: its connection is gone for good.
    if (stream.closed) return;
    const stored = this.eventStore.storeEvent(stream.id, message);
    const written = stream.chain
      .then(() => stored)
      .then(
        (eventId) => {
          const res = stream.res;
          if (res !== undefined && stream.replayed?.has(eventId) !== true)
            writeLive(
              res,
              sseEvent(eventId, message === '' ? undefined : message),
              this.maxUnsentBytes,
            );
        },
        (error: unknown) => {
          this.core.log(
            `The event store failed; ending the stream: ${error instanceof Error ? error.message : String(error)}`,
          );
          stream.res?.destroy();
        },
      );
    stream.chain = written.catch((error: unknown) => this.failed(stream, error));
  }

  /** Runs `step` in the stream's write chain; a step that throws ends the session, never the process. */
  private step(stream: SseStream, step: () => void | Promise<void>): Promise<void> {
    stream.chain = stream.chain.then(step).catch((error: unknown) => this.failed(stream, error));
    return stream.chain;
  }

  private failed(stream: SseStream, error: unknown): void {
    if (stream.closed) return;
    this.sessionFailed(stream.entry, error);
  }

  /** @internal The session ended: each stream's connection ends now, and nothing is written to it later. */
  closeAll(entry: SessionEntry): void {
    for (const stream of entry.streams.values()) {
      stream.closed = true;
      clearTimeout(stream.idleTimer);
      const res = stream.res;
      stream.res = undefined;
      if (res !== undefined && isOpen(res)) res.end();
    }
    entry.streams.clear();
    entry.standalone = undefined;
    this.relayer.endSession(entry.session.id!);
  }

  /** @internal The stream's last message is queued: end its connection after it and forget it. */
  finish(entry: SessionEntry, stream: SseStream): void {
    stream.complete = true;
    void this.step(stream, () => {
      entry.streams.delete(stream.id);
      const res = stream.res;
      stream.res = undefined;
      if (res !== undefined && isOpen(res)) res.end();
      // A process relaying this stream ends its connection too (see `relay`).
      this.eventStore
        .endStream?.(stream.id)
        .catch((error: unknown) =>
          this.core.log(`The event store failed to end a stream: ${String(error)}`),
        );
    });
  }

  /** @internal Polling: tell the client when to come back, and close the connection (not the stream). */
  poll(stream: SseStream, retryMs: number): void {
    void this.step(stream, () => {
      const res = stream.res;
      stream.res = undefined;
      if (res !== undefined && isOpen(res))
        res.end(`retry: ${Math.max(0, Math.floor(retryMs))}\n\n`);
    });
  }

  /** Closes a standalone stream that has been quiet too long; the client reconnects after the retry delay. */
  touchIdle(entry: SessionEntry, stream: SseStream): void {
    clearTimeout(stream.idleTimer);
    stream.idleTimer = setTimeout(() => {
      if (entry.standalone === stream && stream.res !== undefined)
        this.poll(stream, IDLE_STREAM_RETRY_MS);
    }, this.idleStreamTimeout);
    stream.idleTimer.unref?.();
  }
}

/** The standalone stream as the session sees it: where notifications that belong to no request go. */
export class StandaloneOutbound implements Outbound {
  readonly canEmit = true;
  private readonly transport: SseStreams;
  private readonly stream: SseStream;

  constructor(transport: SseStreams, stream: SseStream) {
    this.transport = transport;
    this.stream = stream;
  }

  respond(): void {}
  abandon(): void {}

  emit(text: string): void {
    this.transport.queue(this.stream, text);
  }
}

export function sseHeaders(sessionId: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  return headers;
}
