/**
 * The chaos client against the Streamable HTTP server (issue 39 item 3). Every request kind (a
 * plain call, a call with progress, a task, an elicitation round, a sampling round, a
 * subscription, the GET stream, a resumption) is cut at every point (before its body ends, once
 * accepted, during its SSE stream, after its last event) by every cut (socket destroyed, fetch
 * aborted, DELETE, notifications/cancelled), in both eras, with in-memory stores and with Redis,
 * while a bystander client keeps calling. The server must never crash or write after end, must
 * abort the handler a cut cancels, and must free every session, stream, call, task, listener and
 * timer (counted through the runtime's test-only hook, held.ts). The counts are printed.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type HttpListener, type HttpOptions, type McpServer } from '../../src/runtime/index.js';
import { connectRedisStores } from '../../src/runtime/redis-store.js';
import { holdLog, sessionEndDefinition, sessionEndHandlers, type HoldLog } from '../runtime/session-end-server.js';
import { call as statelessCall, meta } from '../runtime/stateless-support.js';
import { startRedis } from '../support/redis.js';
import { activeTimers, held, stopWatching, watchEndpoints, type Held } from './held.js';
import { HOLD_MS, allCases, caseName, endSession, openSession, runCase, until, type CaseResult } from './http-cases.js';

const running: ChildProcess[] = [];
let redisUrl: string;

/** Errors that would have ended a server process. */
const fatal: unknown[] = [];
const onFatal = (error: unknown): void => void fatal.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
  redisUrl = await startRedis(running);
});
afterAll(() => {
  process.off('uncaughtException', onFatal);
  process.off('unhandledRejection', onFatal);
  for (const child of running.reverse()) child.kill();
});

interface Bystander {
  ok: number;
  failed: string[];
  stop(): Promise<void>;
}

/** A client of both eras that calls `echo` over and over while the chaos runs; every answer must come. */
async function startBystander(url: string): Promise<Bystander> {
  const session = await openSession(url);
  const state: Bystander = { ok: 0, failed: [], stop: async () => {} };
  let stopped = false;
  const loop = (async () => {
    for (let n = 0; !stopped; n++) {
      const text = `bystander ${n}`;
      try {
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
        const body = { jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'echo', arguments: { text } } };
        const stateful = await (await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })).json();
        const stateless = await statelessCall(url, 'tools/call', { name: 'echo', arguments: { text }, _meta: meta() }, { id: n });
        for (const answer of [stateful, stateless.body]) {
          if (answer?.result?.content?.[0]?.text === text) state.ok++;
          else state.failed.push(JSON.stringify(answer).slice(0, 200));
        }
      } catch (error) {
        state.failed.push(String(error));
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  state.stop = async () => {
    stopped = true;
    await loop;
    await endSession(url, session);
  };
  return state;
}

interface Report {
  cases: number;
  crashes: number;
  writesAfterEnd: number;
  guardFired: number;
  notAborted: string[];
  leaked: Held;
  bystanderOk: number;
  bystanderFailed: number;
  parked: number;
}

async function chaosRun(store: 'memory' | 'redis'): Promise<Report> {
  const log: HoldLog = holdLog();
  const lines: string[] = [];
  const server: McpServer = createServer(sessionEndDefinition(), sessionEndHandlers(log), { logger: (line) => lines.push(line), tasks: {} });
  const redis = store === 'redis' ? await connectRedisStores(redisUrl, { prefix: `chaos-${process.pid}-${Date.now()}:` }) : undefined;
  const options: HttpOptions = redis === undefined ? {} : { sessionStore: redis.sessionStore, eventStore: redis.eventStore, taskStore: redis.taskStore };
  watchEndpoints();
  let listener: HttpListener | undefined;
  try {
    listener = await server.listenHttp(options);
    const url = listener.url;
    // Loads the lazily loaded validators and modules once, so the baseline counts what stays.
    await endSession(url, await openSession(url));
    await statelessCall(url, 'tools/call', { name: 'echo', arguments: { text: 'warm' }, _meta: meta() });
    const timersBefore = activeTimers();
    const baseline = held(timersBefore);
    const bystander = await startBystander(url);
    const cases = allCases(['2025-11-25', '2026-07-28']);
    const results: CaseResult[] = [];
    const env = { url, log, notify: () => server.notify.toolsChanged() };
    // Eight cases at a time: cuts land while other cases' calls run.
    for (let next = 0; next < cases.length; next += 8)
      results.push(...(await Promise.all(cases.slice(next, next + 8).map((c) => runCase(c, env)))));
    await bystander.stop();
    // Calls that no cut ended finish within their hold; then everything must be back to the baseline.
    const freed = (): boolean => {
      const now = held(timersBefore);
      return now.sessions === baseline.sessions && now.streams === 0 && now.calls === 0 && now.tasks === 0 && now.listeners === baseline.listeners && now.timers <= 0;
    };
    await until(freed, HOLD_MS + 5000);
    const now = held(timersBefore);
    const unsettled = log.started.filter((tag) => !log.aborted.includes(tag) && !log.finished.includes(tag));
    // A 2026-07-28 handler that asked for input is parked by design: its promise never settles and
    // nothing holds it (garbage, test/runtime/parked-handlers.test.ts). Any other is still running.
    const isParked = (tag: string): boolean => /^2026-07-28 (elicitation|sampling) /.test(tag);
    const running = unsettled.filter((tag) => !isParked(tag));
    return {
      cases: cases.length,
      crashes: fatal.length,
      writesAfterEnd: [...fatal.map(String), ...lines].filter((line) => /ERR_STREAM_WRITE_AFTER_END|write after end/.test(line)).length,
      guardFired: lines.filter((line) => line.includes('ended after an error')).length,
      notAborted: results.filter((r) => r.notAborted).map((r) => r.name),
      leaked: {
        sessions: now.sessions - baseline.sessions,
        streams: now.streams,
        calls: now.calls + running.length,
        tasks: now.tasks,
        listeners: now.listeners - baseline.listeners,
        timers: Math.max(0, now.timers),
      },
      bystanderOk: bystander.ok,
      bystanderFailed: bystander.failed.length,
      parked: unsettled.filter(isParked).length,
    };
  } finally {
    stopWatching();
    await listener?.close();
    await redis?.close();
  }
}

function print(store: string, report: Report): void {
  const { leaked } = report;
  console.log(
    `chaos (HTTP, ${store}): ${report.cases} cases; crashes ${report.crashes}, writes after end ${report.writesAfterEnd}, ` +
      `guard fired ${report.guardFired}, handlers not aborted ${report.notAborted.length}; leaked sessions ${leaked.sessions}, ` +
      `streams ${leaked.streams}, calls ${leaked.calls}, tasks ${leaked.tasks}, listeners ${leaked.listeners}, timers ${leaked.timers}; ` +
      `bystander calls ok ${report.bystanderOk}, failed ${report.bystanderFailed} ` +
      `(2026-07-28 input rounds parked by design: ${report.parked})`,
  );
}

describe('chaos client against the HTTP server', () => {
  for (const store of ['memory', 'redis'] as const) {
    it(`every kind × cut point × cut, both eras, ${store} stores: no crash, no write after end, nothing leaked`, async () => {
      const report = await chaosRun(store);
      print(store, report);
      expect(report.cases).toBeGreaterThan(150);
      expect(report.notAborted).toEqual([]);
      expect({ crashes: report.crashes, writesAfterEnd: report.writesAfterEnd, guardFired: report.guardFired }).toEqual({ crashes: 0, writesAfterEnd: 0, guardFired: 0 });
      expect(report.leaked).toEqual({ sessions: 0, streams: 0, calls: 0, tasks: 0, listeners: 0, timers: 0 });
      expect(report.bystanderFailed).toBe(0);
      expect(report.bystanderOk).toBeGreaterThan(20);
    }, 120_000);
  }
});

void caseName;
