/**
 * The rows of the client's call surface (issue 14 item 6): per-call `_meta` reaching the server,
 * per-call log level, the whole result beside the structuredContent-only methods, `listPrompts`,
 * `listen`, `ping`. Rows 10, 12 and 13 run with every client (each has its own way to send `_meta`,
 * get whole results, list prompts); rows 11, 14 and 15 exercise what only our generated client offers
 * in that form, and name why for the SDK clients.
 */
import { expect } from 'vitest';
import type { Combination } from './cells.js';
import { until, type MatrixClient } from './clients.js';
import type { RowContext } from './rows.js';

export const CLIENT_ROWS = [
  { id: '10', title: 'per-call _meta (traceparent, a vendor key) reaches the handler' },
  { id: '11', title: 'per-call log level, messages to the log handler (our client: both eras)' },
  { id: '12', title: 'the whole result (content beside the validated structuredContent)' },
  { id: '13', title: 'listPrompts lists every prompt' },
  { id: '14', title: 'listen(filter, onChange) hears a tool-list change until stopped' },
  { id: '15', title: 'ping: answered in the stateful revisions, refused by name at 2026-07-28' },
] as const;
type ClientRowId = (typeof CLIENT_ROWS)[number]['id'];

const OURS_ONLY: Partial<Record<ClientRowId, string>> = {
  '11': "a per-call log level in the stateful revisions is our client's (it sends logging/setLevel for the call); the SDK clients' levels are row 5",
  '14': "listen(filter, onChange) is our client's; the SDK clients' listening is row 7",
  '15': "ping() typed per revision is our client's",
};

/** The SDK 2.x HTTP entry serves 2025-11-25 with a fresh server per request (as cells.ts says for rows 5 and 7). */
const SDK2_STATELESS_2025: Partial<Record<ClientRowId, string>> = {
  '11': 'the SDK 2.x HTTP entry serves 2025-11-25 with a fresh server per request: the level set by logging/setLevel is gone with that request',
  '14': 'the SDK 2.x HTTP entry serves 2025-11-25 with a fresh server per request and no standalone stream (GET is 405) to carry list changes',
};

/** Why one of these rows cannot run in a combination, or undefined when it runs. */
export function clientRowNotApplicable(c: Combination, row: string): string | undefined {
  const id = row as ClientRowId;
  if (c.client !== 'ours' && OURS_ONLY[id] !== undefined) return OURS_ONLY[id];
  if (c.server === 'sdk2' && c.transport === 'http' && c.era === '2025-11-25') return SDK2_STATELESS_2025[id];
  return undefined;
}

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';

async function row10(t: RowContext): Promise<void> {
  const meta = { traceparent: TRACEPARENT, 'example.com/tag': 'matrix' };
  expect(await t.client.call('trace', {}, { meta })).toMatchObject({ isError: false, structured: { traceparent: TRACEPARENT, tag: 'matrix' } });
  // Per call: the next call without it carries none.
  expect(await t.client.call('trace', {})).toMatchObject({ isError: false, structured: { traceparent: '', tag: '' } });
}

async function row11(t: RowContext): Promise<void> {
  const logs = async (level: 'error' | 'warning'): Promise<MatrixClient['logs']> => {
    const from = t.client.logs.length;
    expect(await t.client.call('chatty', {}, { logLevel: level })).toMatchObject({ isError: false, text: 'logged at four levels' });
    const expected = level === 'error' ? 1 : 2;
    // A server may send log messages on another stream than the result's: wait for them, then a moment for any that should not come.
    await until(() => t.client.logs.length - from >= expected, 3000, `${expected} log message(s)`).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    return t.client.logs.slice(from);
  };
  expect(await logs('error')).toEqual([{ level: 'error', data: { level: 'error' } }]);
  expect(await logs('warning')).toEqual([
    { level: 'warning', data: { level: 'warning' } },
    { level: 'error', data: { level: 'error' } },
  ]);
}

async function row12(t: RowContext): Promise<void> {
  const full = await t.client.callFull('trace', {}, { meta: { traceparent: TRACEPARENT } });
  // Every server here puts a text block beside the structured content; the whole result keeps both.
  expect(full).toEqual({ isError: false, text: `traced ${TRACEPARENT}`, structured: { traceparent: TRACEPARENT, tag: '' } });
  if (t.combination.client === 'ours' && t.combination.server === 'ours') {
    // Our server turns bad_output into a tool error: `.full` resolves with it instead of throwing ToolError.
    expect(await t.client.callFull('bad_output', {})).toMatchObject({ isError: true, structured: undefined });
  } else if (t.combination.client === 'ours') {
    // The SDK servers send the broken output: `.full` validates it like the plain method.
    await expect(t.client.callFull('bad_output', {})).rejects.toMatchObject({ name: 'OutputValidationError' });
  }
}

async function row13(t: RowContext): Promise<void> {
  expect(await t.client.listPrompts()).toEqual(['météo']);
}

async function row14(t: RowContext): Promise<void> {
  const client = t.client.generated;
  if (client === undefined) throw new Error('row 14 needs our generated client');
  const heard: string[] = [];
  const stop = await client.listen({ toolsListChanged: true }, (change) => heard.push(change.method));
  try {
    expect(await t.client.call('touch_tools', {})).toMatchObject({ isError: false, text: 'announced' });
    await until(() => heard.includes('notifications/tools/list_changed'), 3000, 'onChange with notifications/tools/list_changed');
  } finally {
    await stop();
  }
  const count = heard.length;
  expect(await t.client.call('touch_tools', {})).toMatchObject({ isError: false, text: 'announced' });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(heard.length, 'nothing heard after stop()').toBe(count);
}

async function row15(t: RowContext): Promise<void> {
  const client = t.client.generated;
  if (client === undefined) throw new Error('row 15 needs our generated client');
  if (t.combination.era === '2026-07-28') await expect(client.ping()).rejects.toThrow(/ping does not exist in protocol revision 2026-07-28/);
  else await expect(client.ping()).resolves.toBeUndefined();
}

export const CLIENT_ROW_BODIES: Record<ClientRowId, (t: RowContext) => Promise<void>> = {
  '10': row10,
  '11': row11,
  '12': row12,
  '13': row13,
  '14': row14,
  '15': row15,
};
