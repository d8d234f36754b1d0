/**
 * The chaos client's HTTP cases: each request kind, cut at each point by each cut, in both eras
 * (a 2025-11-25 session, or 2026-07-28 requests without one). `runCase` plays one case against a
 * server and reports whether the call's handler saw its signal abort when it had to.
 */
import { FetchExchange, SocketExchange, type Exchange, type Sent } from './exchange.js';
import type { HoldLog } from '../runtime/session-end-server.js';
import { meta, standardHeaders } from '../runtime/stateless-support.js';

export type Era = '2025-11-25' | '2026-07-28';
export type Kind = 'call' | 'progress' | 'task' | 'elicitation' | 'sampling' | 'subscription' | 'get-stream' | 'resumption';
export type Point = 'before-body' | 'accepted' | 'during-stream' | 'after-last-event';
export type Cut = 'socket-destroyed' | 'fetch-aborted' | 'delete' | 'cancelled';

export const KINDS: readonly Kind[] = ['call', 'progress', 'task', 'elicitation', 'sampling', 'subscription', 'get-stream', 'resumption'];
export const POINTS: readonly Point[] = ['before-body', 'accepted', 'during-stream', 'after-last-event'];
export const CUTS: readonly Cut[] = ['socket-destroyed', 'fetch-aborted', 'delete', 'cancelled'];

export interface ChaosCase {
  era: Era;
  kind: Kind;
  point: Point;
  cut: Cut;
}

/** How long the hold tools hold a call that nothing cuts. */
export const HOLD_MS = 1200;
const BOTH = 'application/json, text/event-stream';
const CAPABILITIES = { elicitation: {}, sampling: {} };
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** Kinds whose answer is an SSE stream (a point "during the stream" exists). */
function streams(c: ChaosCase): boolean {
  if (c.era === '2026-07-28') return c.kind === 'progress' || c.kind === 'subscription';
  return c.kind === 'progress' || c.kind === 'elicitation' || c.kind === 'sampling' || c.kind === 'get-stream' || c.kind === 'resumption';
}

/** The combinations that exist: no GET, resumption or DELETE without a session; no body to cut in a GET. */
export function validCase(c: ChaosCase): boolean {
  const get = c.kind === 'get-stream' || c.kind === 'resumption';
  if (c.era === '2026-07-28' && (get || c.cut === 'delete')) return false;
  if (get && c.point === 'before-body') return false;
  if (c.point === 'during-stream' && !streams(c)) return false;
  return true;
}

export function allCases(eras: readonly Era[]): ChaosCase[] {
  const cases: ChaosCase[] = [];
  for (const era of eras)
    for (const kind of KINDS)
      for (const point of POINTS)
        for (const cut of CUTS) {
          const c = { era, kind, point, cut };
          if (validCase(c)) cases.push(c);
        }
  return cases;
}

export function caseName(c: ChaosCase): string {
  return `${c.era} ${c.kind} cut ${c.point} by ${c.cut}`;
}

/** Whether the cut must abort the call's handler (and not merely leave it to finish). */
function mustAbort(c: ChaosCase): boolean {
  if (c.point === 'before-body' || c.point === 'after-last-event') return false;
  if (c.kind === 'subscription' || c.kind === 'get-stream') return false;
  // A resumption's call is the earlier POST: only the end of its session ends it.
  if (c.kind === 'resumption') return c.cut === 'delete';
  if (c.era === '2026-07-28') {
    // No session: the connection is the call. Its input rounds are answered by a new request, and
    // a call that became a task outlives its connection.
    if (c.kind === 'elicitation' || c.kind === 'sampling' || c.kind === 'task') return false;
    return c.cut === 'socket-destroyed' || c.cut === 'fetch-aborted';
  }
  if (c.cut === 'delete') return true;
  // A task outlives the request that created it; other calls are cancelled by their id.
  if (c.cut === 'cancelled') return c.kind !== 'task';
  // A dropped connection cancels a call waiting for a JSON answer; an SSE stream lives on for resumption.
  return c.kind === 'call';
}

export interface CaseResult {
  name: string;
  /** The handler's signal did not abort though the cut had to abort it. */
  notAborted: boolean;
}

interface Env {
  url: string;
  log: HoldLog;
  /** Announces a list change, for a standalone stream to carry. */
  notify(): void;
}

let sequence = 0;

export async function runCase(c: ChaosCase, env: Env): Promise<CaseResult> {
  const tag = `${caseName(c)} #${++sequence}`;
  const stateful = c.era === '2025-11-25';
  const session = stateful ? await openSession(env.url) : undefined;
  const headers = (method: string, params: Record<string, unknown>): Record<string, string> =>
    stateful ? { 'content-type': 'application/json', accept: BOTH, 'mcp-session-id': session!, 'mcp-protocol-version': c.era } : standardHeaders(method, params);
  const id = 100 + (sequence % 1000);
  const { method, params } = requestOf(c, tag);
  let sent: Sent;
  if (c.kind === 'get-stream' || c.kind === 'resumption') {
    const get: Record<string, string> = { accept: 'text/event-stream', 'mcp-session-id': session!, 'mcp-protocol-version': c.era };
    if (c.kind === 'resumption') get['last-event-id'] = await cutProgressCall(env.url, headers('tools/call', {}), tag);
    sent = { url: env.url, method: 'GET', headers: get };
  } else {
    sent = { url: env.url, method: 'POST', headers: headers(method, params), body: JSON.stringify({ jsonrpc: '2.0', id, method, params }), partial: c.point === 'before-body' };
  }
  const exchange: Exchange = c.cut === 'fetch-aborted' ? new FetchExchange(sent) : new SocketExchange(sent);
  await reach(c, exchange, env, tag, session, id);
  await cut(c, exchange, env.url, session, id);
  let notAborted = false;
  if (mustAbort(c)) notAborted = !(await until(() => env.log.aborted.includes(tag), 2000));
  // The client leaves: its connection goes, and a 2025-11-25 client ends its session.
  await new Promise((resolve) => setTimeout(resolve, 50));
  exchange.cut();
  if (session !== undefined && c.cut !== 'delete') await endSession(env.url, session);
  return { name: caseName(c), notAborted };
}

function requestOf(c: ChaosCase, tag: string): { method: string; params: Record<string, unknown> } {
  const stateless = c.era === '2026-07-28';
  const call = (name: string, extra: Record<string, unknown> = {}, capabilities: Record<string, unknown> = CAPABILITIES) => ({
    method: 'tools/call',
    params: { name, arguments: { tag, ms: HOLD_MS }, ...extra, ...(stateless ? { _meta: { ...meta(capabilities), ...((extra['_meta'] as object) ?? {}) } } : {}) },
  });
  switch (c.kind) {
    case 'call':
      return call('hold');
    case 'progress':
    case 'resumption':
      return call('hold_progress', { _meta: { progressToken: tag } });
    case 'task':
      return stateless ? call('hold_task', {}, TASKS) : call('hold_task', { task: { ttl: 60_000 } });
    case 'elicitation':
      return call('elicit_once');
    case 'sampling':
      return call('sample_once');
    case 'subscription':
    case 'get-stream':
      return stateless
        ? { method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta() } }
        : { method: 'resources/subscribe', params: { uri: 'info://server' } };
  }
}

/** Waits until the case's cut point. */
async function reach(c: ChaosCase, exchange: Exchange, env: Env, tag: string, session: string | undefined, id: number): Promise<void> {
  const handler = c.kind !== 'subscription' && c.kind !== 'get-stream' && c.kind !== 'resumption';
  switch (c.point) {
    case 'before-body':
      // The server has the headers and half the body: give it a moment to start reading.
      await new Promise((resolve) => setTimeout(resolve, 30));
      return;
    case 'accepted':
      // A call is accepted once its handler runs (a JSON answer sends no headers before it).
      if (handler) await until(() => env.log.started.includes(tag), 3000);
      else await exchange.waitForHeaders();
      return;
    case 'during-stream':
      await exchange.waitFor((text) => /\ndata: ./.test('\n' + text) || text.includes('data: {'));
      return;
    case 'after-last-event':
      if (c.era === '2025-11-25' && (c.kind === 'elicitation' || c.kind === 'sampling')) {
        // Answer the server's request, then read the call's answer to its end.
        const asked = c.kind === 'elicitation' ? 'elicitation/create' : 'sampling/createMessage';
        await exchange.waitFor((text) => text.includes(asked));
        const request = /"id":(\d+),"method":"(elicitation\/create|sampling\/createMessage)"/.exec(exchange.text);
        if (request !== null) await answerServer(env.url, session!, Number(request[1]), c.kind);
      }
      if (c.kind === 'get-stream' || c.kind === 'resumption' || (c.kind === 'subscription' && c.era === '2026-07-28')) {
        // A stream that never ends by itself: its last event is whatever arrived; send one more.
        await exchange.waitForHeaders();
        await new Promise((resolve) => setTimeout(resolve, 30));
        env.notify();
        await exchange.waitFor((text) => text.includes('list_changed'), 1000);
        return;
      }
      await exchange.waitForEnd(HOLD_MS + 3000);
      void id;
  }
}

async function cut(c: ChaosCase, exchange: Exchange, url: string, session: string | undefined, id: number): Promise<void> {
  switch (c.cut) {
    case 'socket-destroyed':
    case 'fetch-aborted':
      exchange.cut();
      return;
    case 'delete':
      await endSession(url, session!);
      return;
    case 'cancelled': {
      const message = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'chaos' } };
      const headers = session === undefined
        ? standardHeaders('notifications/cancelled', {})
        : { 'content-type': 'application/json', accept: BOTH, 'mcp-session-id': session, 'mcp-protocol-version': c.era };
      if (session === undefined) (message.params as Record<string, unknown>)['_meta'] = meta();
      await (await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) })).text();
    }
  }
}

/** A 2025-11-25 session with elicitation and sampling declared. */
export async function openSession(url: string): Promise<string> {
  const params = { protocolVersion: '2025-11-25', capabilities: CAPABILITIES, clientInfo: { name: 'chaos', version: '1' } };
  const headers = { 'content-type': 'application/json', accept: BOTH };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }) });
  const session = response.headers.get('mcp-session-id');
  await response.text();
  if (session === null) throw new Error(`initialize failed: HTTP ${response.status}`);
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  await (await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': session }, body: JSON.stringify(initialized) })).text();
  return session;
}

export async function endSession(url: string, session: string): Promise<void> {
  await (await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).text();
}

async function answerServer(url: string, session: string, id: number, kind: 'elicitation' | 'sampling'): Promise<void> {
  const result = kind === 'elicitation' ? { action: 'accept', content: { name: 'chaos' } } : { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'chaos' };
  const headers = { 'content-type': 'application/json', accept: BOTH, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await (await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, result }) })).text();
}

/** A progress call whose connection is cut after its first progress event: the priming event's id, so the resumption replays that progress. */
async function cutProgressCall(url: string, headers: Record<string, string>, tag: string): Promise<string> {
  const params = { name: 'hold_progress', arguments: { tag, ms: HOLD_MS }, _meta: { progressToken: tag } };
  const first = new SocketExchange({ url, method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) });
  await first.waitFor((text) => text.includes('notifications/progress'));
  first.cut();
  const ids = [...first.text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]!);
  return ids[0] ?? 'none';
}

export async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}
