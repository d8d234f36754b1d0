/**
 * No session affinity: several processes serve one Streamable HTTP session, and a client message
 * may land on a process that cannot act on it (the answer to a server→client request another
 * process sent, `notifications/cancelled` for a request another process runs, `tasks/update` or a
 * 2025-11-25 task's messages for a task another process runs). That process passes it on the bus,
 * every process sharing the bus receives it, and the one holding the request acts on it.
 *
 * The seam is `MessageBus` (redis-bus.ts implements it on Redis pub/sub, `--redis`), carried by
 * the shared session store (`SessionStore.bus`); this module routes what arrives. Kinds of envelope (`k`): `msg`, a client message for session `s`; features
 * add their own (`on`).
 */
import type { JsonObject } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import type { ServerCore } from './server.js';
import type { Session } from './session.js';

/** What the processes serving one set of sessions share; every method may reject when the bus is down. */
export interface MessageBus {
  /** Sends `envelope` (JSON) to every process on the bus, this one included. */
  publish(envelope: string): Promise<void>;
  /** `receive` gets every envelope published from now on. Resolves once listening. */
  subscribe(receive: (envelope: string) => void): Promise<void>;
  /** Appends a message to a task's mailbox (2025-11-25 task messages no stream could take yet). */
  post(taskId: string, text: string, ttlMs: number): Promise<void>;
  /** Takes every message of a task's mailbox, oldest first, leaving it empty. */
  take(taskId: string): Promise<string[]>;
}

/** A process's end of the bus: forwarding, and the routes of what arrives. */
export class BusLink {
  readonly bus: MessageBus;
  /** Server→client request ids of this process start here: they never meet another process's in a session. */
  readonly idBase = Math.floor(Math.random() * 2 ** 31) * 2 ** 20;
  private readonly core: ServerCore;
  private readonly routes = new Map<string, (envelope: JsonObject) => void>();

  constructor(core: ServerCore, bus: MessageBus, findSession: (id: string) => Session | undefined) {
    this.core = core;
    this.bus = bus;
    this.routes.set('msg', (envelope) => {
      const session = typeof envelope['s'] === 'string' ? findSession(envelope['s']) : undefined;
      // Only a process holding the session can hold what the message is for.
      if (session !== undefined && isObject(envelope['m'])) session.receiveForwarded(envelope['m']);
    });
  }

  /** A feature's kind of envelope. */
  on(kind: string, route: (envelope: JsonObject) => void): void {
    this.routes.set(kind, route);
  }

  /** Sends an envelope of `kind`; a failure is logged (the message is then lost, as on a cut connection). */
  send(kind: string, fields: JsonObject): void {
    this.bus
      .publish(JSON.stringify({ ...fields, k: kind }))
      .catch((error: unknown) =>
        this.core.log(`Passing a ${kind} message to the other processes failed: ${String(error)}`),
      );
  }

  /** A client message this process cannot act on, for the process that can. */
  forward(sessionId: string, message: JsonObject): void {
    this.send('msg', { s: sessionId, m: message });
  }

  /** @internal What arrives from the bus. */
  readonly receive = (text: string): void => {
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch {
      return;
    }
    if (!isObject(envelope) || typeof envelope['k'] !== 'string') return;
    this.routes.get(envelope['k'])?.(envelope);
  };
}

/**
 * Connects the core to the bus: answers land wherever, and reach the process waiting for them.
 * Forwarding works at once; listening starts in the background (a process that has just started
 * holds no request another process could forward anything for).
 */
export function attachBus(
  core: ServerCore,
  bus: MessageBus,
  findSession: (id: string) => Session | undefined,
): void {
  if (core.bus !== undefined) return;
  const link = new BusLink(core, bus, findSession);
  core.bus = link;
  bus
    .subscribe(link.receive)
    .catch((error: unknown) => core.log(`Listening on the message bus failed: ${String(error)}`));
}
