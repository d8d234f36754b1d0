/**
 * The chaos client over stdio (issue 39 item 3): each request kind, cut at each point, by the two
 * ways a stdio client goes: its stdin closes (the host closed the pipe), or it is killed (both
 * pipes close under the server: the server's stdout breaks too). In both eras. The server must end
 * cleanly (serveStdio resolves, as the process would exit 0), never throw, and leave no handler
 * running. Served in-process on pipes, so hundreds of cases stay quick; the same cut on a real
 * process is test/runtime/stdio-process.test.ts.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/runtime/index.js';
import { holdLog, sessionEndDefinition, sessionEndHandlers, type HoldLog } from '../runtime/session-end-server.js';
import { meta } from '../runtime/stateless-support.js';
import { HOLD_MS, until, type Era } from './http-cases.js';

type Kind = 'call' | 'progress' | 'task' | 'elicitation' | 'sampling' | 'subscription';
type Point = 'before-line-end' | 'accepted' | 'during-stream' | 'after-last-event';
type Cut = 'stdin-closed' | 'client-killed';

const fatal: unknown[] = [];
const onFatal = (error: unknown): void => void fatal.push(error);
beforeAll(() => {
  process.on('uncaughtException', onFatal);
  process.on('unhandledRejection', onFatal);
});
afterAll(() => {
  process.off('uncaughtException', onFatal);
  process.off('unhandledRejection', onFatal);
});

function request(era: Era, kind: Kind, tag: string): Record<string, unknown> {
  const stateless = era === '2026-07-28';
  const withMeta = (params: Record<string, unknown>, capabilities: Record<string, unknown> = { elicitation: {}, sampling: {} }) =>
    stateless ? { ...params, _meta: { ...meta(capabilities), ...((params['_meta'] as object) ?? {}) } } : params;
  const call = (name: string, extra: Record<string, unknown> = {}, capabilities?: Record<string, unknown>) =>
    ({ method: 'tools/call', params: withMeta({ name, arguments: { tag, ms: HOLD_MS }, ...extra }, capabilities) });
  const byKind = {
    call: () => call('hold'),
    progress: () => call('hold_progress', { _meta: { progressToken: tag } }),
    task: () => (stateless ? call('hold_task', {}, { extensions: { 'io.modelcontextprotocol/tasks': {} } }) : call('hold_task', { task: { ttl: 60_000 } })),
    elicitation: () => call('elicit_once'),
    sampling: () => call('sample_once'),
    subscription: () =>
      stateless
        ? { method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta() } }
        : { method: 'resources/subscribe', params: { uri: 'info://server' } },
  };
  return { jsonrpc: '2.0', id: 2, ...byKind[kind]() };
}

interface Outcome {
  name: string;
  endedCleanly: boolean;
  stillRunning: boolean;
}

async function runStdioCase(era: Era, kind: Kind, point: Point, cut: Cut): Promise<Outcome> {
  const name = `${era} ${kind} cut ${point} by ${cut}`;
  const log: HoldLog = holdLog();
  const server = createServer(sessionEndDefinition(), sessionEndHandlers(log), { logger: () => {}, tasks: {} });
  const input = new PassThrough();
  const output = new PassThrough();
  let out = '';
  output.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let ended = false;
  const served = server.serveStdio({ input, output }).then(() => (ended = true));
  if (era === '2025-11-25') {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: era, capabilities: { elicitation: {}, sampling: {} }, clientInfo: { name: 'chaos', version: '1' } } };
    input.write(JSON.stringify(init) + '\n' + '{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await until(() => out.includes('"id":1'), 3000);
  }
  const line = JSON.stringify(request(era, kind, name));
  if (point === 'before-line-end') input.write(line.slice(0, Math.floor(line.length / 2)));
  else input.write(line + '\n');
  const handler = kind !== 'subscription';
  if (point === 'accepted') await until(() => (handler ? log.started.includes(name) : out.includes('"id":2')), 3000);
  if (point === 'during-stream') await until(() => /"method":"(notifications\/progress|elicitation\/create|sampling\/createMessage)"/.test(out), 3000);
  if (point === 'after-last-event') await until(() => out.includes('"id":2,"result"') || out.includes('"id":2,"error"'), HOLD_MS + 3000);
  if (cut === 'client-killed') output.destroy();
  input.end();
  if (cut === 'client-killed') input.destroy();
  const endedCleanly = await until(() => ended, HOLD_MS + 3000);
  await served;
  // A 2026-07-28 handler that asked for input is parked by design (test/runtime/parked-handlers.test.ts).
  const parked = era === '2026-07-28' && (kind === 'elicitation' || kind === 'sampling');
  const running = (): boolean => !parked && log.started.some((tag) => !log.aborted.includes(tag) && !log.finished.includes(tag));
  // A 2025-11-25 server ends once its session is idle: nothing of it may run on (a task the
  // closed session can no longer read is cancelled). A 2026-07-28 request has no session: the
  // server ends without waiting, and its handler must still end within its hold.
  if (era === '2026-07-28') await until(() => !running(), HOLD_MS + 1000);
  const stillRunning = running();
  return { name, endedCleanly, stillRunning };
}

describe('chaos client over stdio', () => {
  it('every kind × cut point × cut, both eras: the server ends cleanly, never throws, and leaves nothing running', async () => {
    const cases: Promise<Outcome>[] = [];
    const streaming = (era: Era, kind: Kind) => kind === 'progress' || (era === '2025-11-25' && (kind === 'elicitation' || kind === 'sampling'));
    for (const era of ['2025-11-25', '2026-07-28'] as const)
      for (const kind of ['call', 'progress', 'task', 'elicitation', 'sampling', 'subscription'] as const)
        for (const point of ['before-line-end', 'accepted', 'during-stream', 'after-last-event'] as const)
          for (const cut of ['stdin-closed', 'client-killed'] as const)
            if (point !== 'during-stream' || streaming(era, kind)) cases.push(runStdioCase(era, kind, point, cut));
    const outcomes = await Promise.all(cases);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const notEnded = outcomes.filter((o) => !o.endedCleanly).map((o) => o.name);
    const running = outcomes.filter((o) => o.stillRunning).map((o) => o.name);
    console.log(`chaos (stdio): ${outcomes.length} cases; crashes ${fatal.length}, servers not ended ${notEnded.length}, handlers left running ${running.length}`);
    expect(outcomes.length).toBeGreaterThan(70);
    expect(fatal).toEqual([]);
    expect(notEnded).toEqual([]);
    expect(running).toEqual([]);
  }, 60_000);
});
