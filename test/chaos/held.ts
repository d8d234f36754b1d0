/**
 * What a server still holds, counted through the runtime's test-only hook
 * (src/runtime/transports/http/test-hook.ts): each HTTP endpoint's session table is handed to the
 * test when it is made, and read here once the clients are gone. Timers are counted by Node itself
 * (`process.getActiveResourcesInfo`), against a count taken before the chaos.
 */
import type { ServerCore } from '../../src/runtime/server/server.js';
import type { Session } from '../../src/runtime/server/session.js';
import { testHook } from '../../src/runtime/transports/http/test-hook.js';

/** The fields of the session table the counts read (private in the runtime: this is a test's view). */
interface SessionTable {
  readonly core: ServerCore;
  readonly sessions: Map<string, { session: Session; streams: Map<string, unknown> }>;
  readonly streams: { readonly relayer: { readonly relays: Map<string, unknown> } };
}

export interface Held {
  sessions: number;
  streams: number;
  /** Handlers running and server→client requests waiting, over every session. */
  calls: number;
  tasks: number;
  /** Change listeners of sessions, and streams relayed from a shared store. */
  listeners: number;
  timers: number;
}

const tables: SessionTable[] = [];

/** From now on, every HTTP endpoint made in this process is counted. */
export function watchEndpoints(): void {
  testHook.watch = (table) => tables.push(table as SessionTable);
}

export function stopWatching(): void {
  testHook.watch = undefined;
  tables.length = 0;
}

export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

export function held(timersBefore: number): Held {
  const counts: Held = { sessions: 0, streams: 0, calls: 0, tasks: 0, listeners: 0, timers: activeTimers() - timersBefore };
  const cores = new Set<ServerCore>();
  for (const table of tables) {
    cores.add(table.core);
    counts.sessions += table.sessions.size;
    counts.listeners += table.streams.relayer.relays.size;
    for (const { session, streams } of table.sessions.values()) {
      counts.streams += streams.size;
      counts.calls += session.inFlight.size + (session.pendingClient?.size ?? 0);
    }
  }
  for (const core of cores) {
    counts.tasks += core.taskRuns.size;
    counts.listeners += core.listeners.size;
  }
  return counts;
}
