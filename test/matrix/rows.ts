/**
 * The rows of the matrix, each written once against `MatrixClient` and run in every cell
 * of its row. A row asserts what a user of that client would see, and over HTTP at 2026-07-28
 * also what the client put in the headers (read from the recording proxy in front of the server).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Combination, RowId } from './cells.js';
import { GREETING, NAME, until, type MatrixClient, type OurClientModule } from './clients.js';
import { CALL_ROW_BODIES } from './rows-calls.js';
import { CLIENT_ROW_BODIES } from './rows-client.js';
import { LIST_ROW_BODIES } from './rows-lists.js';
import { AUTH_ROW_BODIES } from './rows-auth.js';
import { INPUT_ROW_BODIES, type InputRowContext } from './rows-input.js';
import { TASK_ROW_BODIES } from './rows-tasks.js';
import { decodeHeader, type RecordedRequest, type RunningHttpServer } from './servers.js';

export interface RowContext extends InputRowContext {
  combination: Combination;
  /** Connected to the server of every row but 1a. */
  client: MatrixClient;
  /** A new connection to the server of row 1a (a tool named outside ASCII); the row closes it. */
  connectNames(): Promise<MatrixClient>;
  /** The HTTP server (and its recorded requests), when the transport is HTTP. */
  http: RunningHttpServer | undefined;
  /** The same for the server of row 1a (our server is another process; the SDK servers are the same one). */
  namesHttp: RunningHttpServer | undefined;
  /** Our generated client module of names.yaml, which knows none of the main server's tools (row C3). */
  namesClient: () => OurClientModule;
}

const base64 = (text: string): string => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

/** The requests recorded since `from` whose Mcp-Method is `method`. */
function sent(http: RunningHttpServer, from: number, method: string): RecordedRequest[] {
  return http.requests.slice(from).filter((r) => r.headers['mcp-method'] === method);
}

/** Headers are part of the wire format only in 2026-07-28 over HTTP: the server to read them from, if so. */
function checksHeaders(t: RowContext, http: RunningHttpServer | undefined = t.http): http is RunningHttpServer {
  return http !== undefined && t.combination.era === '2026-07-28';
}

async function row1a(t: RowContext): Promise<void> {
  const client = await t.connectNames();
  try {
    expect(client.protocolVersion).toBe(t.combination.era);
    const http = t.namesHttp;
    const from = http?.requests.length ?? 0;
    expect(await client.call('résumé', { text: 'ça va' })).toEqual({ isError: false, text: 'résumé: ça va', structured: undefined });
    // Not ASCII: Mcp-Name must travel as base64 (and the server compares it decoded).
    if (checksHeaders(t, http)) expect(new Set(sent(http, from, 'tools/call').map((r) => r.headers['mcp-name']))).toEqual(new Set([base64('résumé')]));
  } finally {
    await client.close();
  }
}

async function row1b(t: RowContext): Promise<void> {
  const from = t.http?.requests.length ?? 0;
  expect(await t.client.prompt('météo', { ville: 'Zürich' })).toBe('Météo à Zürich');
  if (checksHeaders(t, t.http)) expect(new Set(sent(t.http, from, 'prompts/get').map((r) => r.headers['mcp-name']))).toEqual(new Set([base64('météo')]));
}

async function row2(t: RowContext): Promise<void> {
  const from = t.http?.requests.length ?? 0;
  // Both values need base64 in a header: leading/trailing spaces, and a character outside ASCII.
  const result = await t.client.call('route', { region: ' padded ', place: { city: 'São Paulo' } });
  expect(result).toMatchObject({ isError: false, structured: { region: ' padded ', city: 'São Paulo' } });
  if (checksHeaders(t, t.http)) {
    const calls = sent(t.http, from, 'tools/call');
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect([call.headers['mcp-param-region'], call.headers['mcp-param-city']]).toEqual([base64(' padded '), base64('São Paulo')]);
      expect(decodeHeader(call.headers['mcp-name'])).toBe('route');
    }
    if (t.combination.server === 'ours') {
      // Our server's success proves agreement only if it checks: the same request with either
      // header changed (top-level, then nested) must be refused with -32020.
      const call = calls[calls.length - 1] as RecordedRequest;
      for (const header of ['mcp-param-region', 'mcp-param-city']) {
        const answer = await replay(t.http, call, { [header]: base64('somewhere else') });
        expect([header, answer.status, answer.code]).toEqual([header, 400, -32020]);
      }
    }
  }
}

/** Sends a recorded request again, straight to the server, with some headers replaced. */
async function replay(http: RunningHttpServer, recorded: RecordedRequest, changes: Record<string, string>): Promise<{ status: number; code: unknown }> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(recorded.headers)) {
    if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers.set(name, value);
  }
  for (const [name, value] of Object.entries(changes)) headers.set(name, value);
  const response = await fetch(http.url, { method: 'POST', headers, body: recorded.body });
  const text = await response.text();
  const json = /^\s*\{/.test(text) ? (JSON.parse(text) as { error?: { code?: unknown } }) : undefined;
  return { status: response.status, code: json?.error?.code };
}

async function row3(t: RowContext): Promise<void> {
  const progress: { progress: number; total?: number | undefined }[] = [];
  const result = await t.client.call('count_up', { steps: 3 }, { onProgress: (p) => progress.push({ progress: p.progress, total: p.total }) });
  expect(result).toMatchObject({ isError: false, text: 'counted to 3' });
  expect(progress).toEqual([
    { progress: 1, total: 3 },
    { progress: 2, total: 3 },
    { progress: 3, total: 3 },
  ]);
}

async function row4(t: RowContext): Promise<void> {
  const id = randomUUID();
  const seen = async (): Promise<{ started: boolean; cancelled: boolean }> => {
    const outcome = await t.client.call('was_cancelled', { id });
    return outcome.structured as { started: boolean; cancelled: boolean };
  };
  const controller = new AbortController();
  const call = t.client.call('sleep', { id }, { signal: controller.signal }).then(
    () => 'resolved',
    () => 'rejected',
  );
  let state = await seen();
  for (const deadline = Date.now() + 5000; !state.started && Date.now() < deadline; state = await seen()) await pause(20);
  expect(state, 'the sleep handler started').toEqual({ started: true, cancelled: false });
  controller.abort(new Error('the matrix cancels'));
  expect(await call).toBe('rejected');
  for (const deadline = Date.now() + 3000; !state.cancelled && Date.now() < deadline; state = await seen()) await pause(20);
  expect(state, "the handler's signal aborted").toEqual({ started: true, cancelled: true });
}

async function row5(t: RowContext): Promise<void> {
  const from = t.client.logs.length;
  let result;
  if (t.combination.era === '2026-07-28') {
    result = await t.client.call('chatty', {}, { logLevel: 'warning' });
  } else {
    await t.client.setLogLevel('warning');
    result = await t.client.call('chatty', {});
  }
  expect(result).toMatchObject({ isError: false, text: 'logged at four levels' });
  // A server may send log messages on another stream than the result's (the SDK 1.x server's
  // standalone stream): wait for the two expected, then a moment for any that should not come.
  await until(() => t.client.logs.length - from >= 2, 3000, 'two log messages').catch(() => {});
  await pause(100);
  expect(t.client.logs.slice(from)).toEqual([
    { level: 'warning', data: { level: 'warning' } },
    { level: 'error', data: { level: 'error' } },
  ]);
}

async function row6(t: RowContext): Promise<void> {
  const from = t.client.asked.length;
  const result = await t.client.call('interview', {});
  expect(result).toMatchObject({ isError: false, structured: { name: NAME, greeting: GREETING } });
  expect(t.client.asked.slice(from)).toEqual(['elicitation: What is your name?', `sampling: Greet ${NAME}`]);
}

async function row7(t: RowContext): Promise<void> {
  const stopListening = t.combination.era === '2026-07-28' ? await t.client.listenToolsChanged() : undefined;
  try {
    const from = t.client.notifications.length;
    expect(await t.client.call('touch_tools', {})).toMatchObject({ isError: false, text: 'announced' });
    await until(() => t.client.notifications.slice(from).includes('notifications/tools/list_changed'), 3000, 'notifications/tools/list_changed');
  } finally {
    await stopListening?.();
  }
}

async function row8(t: RowContext): Promise<void> {
  // Row 7 announced a tool-list change, after which the SDK 2.x client forgets the listed schemas.
  await t.client.listTools();
  const outcome = await t.client.call('bad_output', {}).then(
    (result) => ({ result }),
    (error: unknown) => ({ error: error as Error }),
  );
  if (t.combination.server === 'ours') {
    // Our server refuses to send it: a tool error naming the broken field, no structuredContent.
    expect(outcome).toEqual({
      result: { isError: true, text: 'Tool bad_output returned structured content that does not match its outputSchema: /count must be integer', structured: undefined },
    });
  } else if (t.combination.client === 'ours') {
    // The SDK server sends it: our client checks it with the manifest's precompiled validator.
    expect('error' in outcome && outcome.error.name).toBe('OutputValidationError');
  } else {
    // The SDK server sends it: the SDK client checks it against the listed outputSchema.
    expect('error' in outcome ? outcome.error.message : outcome.result).toMatch(/output schema|structured content/i);
  }
}

/** What the client says the server is: the name the server gave in serverInfo. */
async function row9(t: RowContext): Promise<void> {
  const expected = { ours: 'matrix', sdk1: 'matrix-sdk1', sdk2: 'matrix-sdk2' }[t.combination.server];
  expect(t.client.serverName).toBe(expected);
}

export const ROW_BODIES: Record<RowId, (t: RowContext) => Promise<void>> = {
  '1a': row1a,
  '1b': row1b,
  '2': row2,
  '3': row3,
  '4': row4,
  '5': row5,
  '6': row6,
  '7': row7,
  '8': row8,
  '9': row9,
  ...CLIENT_ROW_BODIES,
  ...LIST_ROW_BODIES,
  ...AUTH_ROW_BODIES,
  ...INPUT_ROW_BODIES,
  ...TASK_ROW_BODIES,
  ...CALL_ROW_BODIES,
};

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
