/// <reference types="node" />
/**
 * The seam for serving one Streamable HTTP session from several processes. A process that gets a
 * request for a session it does not know asks the store, rebuilds the session from its snapshot
 * (negotiated revision, client capabilities, log level, resource subscriptions) and serves it.
 * Without a store, sessions live in the process that created them. A Redis implementation sits
 * outside the runtime (redis-store.ts), so the runtime itself needs nothing but node:*.
 */
import type { SessionSnapshot } from '../../server/session.js';
import type { MessageBus } from '../../server/message-bus.js';

export type { SessionSnapshot } from '../../server/session.js';

export interface SessionStore {
  /** Records (or replaces) a session; it may be forgotten after `ttlMs` without a new save. */
  save(sessionId: string, snapshot: SessionSnapshot, ttlMs: number): Promise<void>;
  /** The snapshot, or undefined for an unknown or expired session. */
  load(sessionId: string): Promise<SessionSnapshot | undefined>;
  /** Ends a session everywhere (HTTP DELETE). */
  delete(sessionId: string): Promise<void>;
  /**
   * Optional: processes sharing the store serve its sessions without affinity; a client message
   * landing on a process other than the one it is for reaches that one (server/message-bus.ts).
   */
  readonly bus?: MessageBus | undefined;
}

/** Keeps snapshots in this process: for tests, and for several transports in one process. */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, { snapshot: string; expires: number }>();

  save(sessionId: string, snapshot: SessionSnapshot, ttlMs: number): Promise<void> {
    this.sessions.set(sessionId, {
      snapshot: JSON.stringify(snapshot),
      expires: Date.now() + ttlMs,
    });
    return Promise.resolve();
  }

  load(sessionId: string): Promise<SessionSnapshot | undefined> {
    const entry = this.sessions.get(sessionId);
    if (entry === undefined || entry.expires < Date.now()) {
      this.sessions.delete(sessionId);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(JSON.parse(entry.snapshot) as SessionSnapshot);
  }

  delete(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
    return Promise.resolve();
  }
}
