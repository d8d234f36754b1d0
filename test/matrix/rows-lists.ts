/**
 * Rows of run-time lists (issue 14 item 1), run against our server by every client, both
 * transports, both eras:
 * - L1: a tool disabled at run time (by another tool's handler, through `context.lists`) leaves the
 *   client's list, its call is refused with a protocol error, the list change reaches the client
 *   by itself, and the server keeps serving; enabled again, it is back.
 * - L2: a resource listed by a template's list handler appears, is read, and an update reaches a
 *   subscriber; the subscribe hook watches it while subscribed.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Combination } from './cells.js';
import { until } from './clients.js';
import type { RowContext } from './rows.js';

export const LIST_ROWS = [
  { id: 'L1', title: 'a tool disabled at run time leaves the list and its call is refused' },
  { id: 'L2', title: 'a listed resource appears, is read, and its update reaches a subscriber' },
] as const;
export type ListRowId = (typeof LIST_ROWS)[number]['id'];

/** The rows drive our server's run-time list API; the SDK fixture servers have no such tools. */
export function listRowNotApplicable(c: Combination, row: string): string | undefined {
  if (!LIST_ROWS.some((r) => r.id === row) || c.server === 'ours') return undefined;
  return "the run-time list rows drive our server's list API (set_tool_enabled, notes listed by a template), which the SDK fixture servers do not serve";
}

async function rowL1(t: RowContext): Promise<void> {
  const before = await t.client.toolNames();
  expect(before).toContain('lists_target');
  const stopListening = t.combination.era === '2026-07-28' ? await t.client.listenToolsChanged() : undefined;
  try {
    const from = t.client.notifications.length;
    expect(await t.client.call('set_tool_enabled', { name: 'lists_target', enabled: false })).toMatchObject({ isError: false, text: 'lists_target disabled' });
    await until(() => t.client.notifications.slice(from).includes('notifications/tools/list_changed'), 3000, 'notifications/tools/list_changed');
    expect(await t.client.toolNames()).toEqual(before.filter((name) => name !== 'lists_target'));
    const refused = await t.client.call('lists_target', {}).then(
      (result) => ({ result }),
      (error: unknown) => ({ error: error as Error & { code?: unknown } }),
    );
    expect('error' in refused ? refused.error.message : refused.result).toMatch(/Tool lists_target is disabled/);
    if ('error' in refused && typeof refused.error.code === 'number') expect(refused.error.code).toBe(-32602);
    // Nothing else changed: the server goes on serving the other tools.
    expect(await t.client.call('route', { region: 'north', place: { city: 'Oslo' } })).toMatchObject({ isError: false, structured: { region: 'north', city: 'Oslo' } });
  } finally {
    await t.client.call('set_tool_enabled', { name: 'lists_target', enabled: true });
    await stopListening?.();
  }
  expect(await t.client.toolNames()).toEqual(before);
  expect(await t.client.call('lists_target', {})).toMatchObject({ isError: false, text: 'lists_target ran' });
}

async function rowL2(t: RowContext): Promise<void> {
  const id = randomUUID().slice(0, 8);
  const uri = `matrix://notes/${id}`;
  expect(await t.client.resourceUris()).not.toContain(uri);
  await t.client.call('add_note', { id, text: 'first draft' });
  expect(await t.client.resourceUris()).toContain(uri);
  expect(await t.client.readText(uri)).toBe('first draft');
  const watched = async (): Promise<string[]> => ((await t.client.call('watched', {})).structured as { uris: string[] }).uris;
  const unsubscribe = await t.client.subscribe(uri);
  try {
    expect(await watched(), 'the subscribe hook ran').toContain(uri);
    const from = t.client.updated.length;
    await t.client.call('edit_note', { id, text: 'second draft' });
    await until(() => t.client.updated.slice(from).includes(uri), 3000, `notifications/resources/updated for ${uri}`);
    expect(await t.client.readText(uri)).toBe('second draft');
  } finally {
    await unsubscribe();
  }
  // The last subscriber left: the unsubscribe hook stopped the watch (a closed listen stream ends a moment later).
  let uris = await watched();
  for (const deadline = Date.now() + 3000; uris.includes(uri) && Date.now() < deadline; uris = await watched()) await new Promise((r) => setTimeout(r, 20));
  expect(uris, 'the unsubscribe hook ran').not.toContain(uri);
}

export const LIST_ROW_BODIES: Record<ListRowId, (t: RowContext) => Promise<void>> = {
  L1: rowL1,
  L2: rowL2,
};
