/**
 * What a task costs a shared store (`TaskStore.shared`, e.g. Redis, where each save or load is a
 * round trip): the process running a task saves it to create it and to end it; status messages set
 * in a burst are written behind, one save for the lot; `tasks/get` for a task running here, or one
 * that ended here, reads nothing. And what another process records stands: a task cancelled in the
 * store behind the run's back is not saved over, and the run takes the cancellation.
 */
import { describe, expect, it } from 'vitest';
import type { ServerHandlers, TaskRecord } from '../../src/runtime/api.js';
import { createServer } from '../../src/runtime/index.js';
import { InMemoryTaskStore, isTerminal } from '../../src/runtime/server/task-store.js';
import { taskDefinition, taskHandlers, meta, Wire } from './task-server.js';

/** A store shared with other processes, as far as the runtime can tell, that counts what it is asked. */
class CountingSharedStore extends InMemoryTaskStore {
  readonly shared = true;
  saves: TaskRecord[] = [];
  loads = 0;

  override load(taskId: string): Promise<TaskRecord | undefined> {
    this.loads++;
    return super.load(taskId);
  }

  async saveRunning(record: TaskRecord): Promise<TaskRecord | undefined> {
    const stored = await super.load(record.taskId);
    if (stored !== undefined && isTerminal(stored.status)) return stored;
    this.saves.push(JSON.parse(JSON.stringify(record)) as TaskRecord);
    await super.save(record);
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server whose export_report sets 20 status messages at once when released, then waits for a second release. */
function chattyServer(store: CountingSharedStore) {
  const levers = taskHandlers();
  const gates: (() => void)[] = [];
  const gate = () => new Promise<void>((resolve) => gates.push(resolve));
  const handlers: ServerHandlers = {
    ...levers.handlers,
    tools: {
      ...levers.handlers.tools,
      export_report: async (input: { rows: number }, context) => {
        await gate();
        for (let row = 1; row <= 20; row++) await context.setStatusMessage(`Row ${row} of 20`);
        await gate();
        return { structuredContent: { url: 'https://files.example/report.csv', rows: input.rows } };
      },
    },
  };
  const server = createServer(taskDefinition(), handlers, { tasks: { store } });
  const wire = new Wire(server);
  const request = (method: string, params: Record<string, unknown>) => wire.request(method, { ...params, _meta: meta() });
  return { request, open: () => gates.splice(0).forEach((resolve) => resolve()) };
}

describe('a task on a shared store', () => {
  it('two saves for its life and one for a burst of status messages; tasks/get here reads nothing', async () => {
    const store = new CountingSharedStore();
    const { request, open } = chattyServer(store);
    const created = (await request('tools/call', { name: 'export_report', arguments: { rows: 3 } }))['result'];
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(store.saves.map((s) => s.status)).toEqual(['working']);
    open();
    await sleep(150); // the burst, then the write-behind
    expect(store.saves.map((s) => s.statusMessage)).toEqual([undefined, 'Row 20 of 20']);
    for (let i = 0; i < 5; i++) {
      const got = (await request('tasks/get', { taskId: created.taskId }))['result'];
      expect(got).toMatchObject({ status: 'working', statusMessage: 'Row 20 of 20' });
    }
    open();
    await sleep(50);
    for (let i = 0; i < 5; i++) expect((await request('tasks/get', { taskId: created.taskId }))['result']).toMatchObject({ status: 'completed' });
    expect(store.saves.map((s) => s.status)).toEqual(['working', 'working', 'completed']);
    expect(store.loads).toBe(0);
  });

  it('cancelled in the store by another process: the run’s next save is refused and it ends cancelled', async () => {
    const store = new CountingSharedStore();
    const { request, open } = chattyServer(store);
    const created = (await request('tools/call', { name: 'export_report', arguments: { rows: 3 } }))['result'];
    const stored = (await store.load(created.taskId))!;
    await store.save({ ...stored, status: 'cancelled', statusMessage: 'The task was cancelled by request' });
    open();
    await sleep(150);
    open();
    await sleep(50);
    expect(await store.load(created.taskId)).toMatchObject({ status: 'cancelled' });
    expect((await request('tasks/get', { taskId: created.taskId }))['result']).toMatchObject({ status: 'cancelled', statusMessage: 'The task was cancelled by request' });
    expect(store.saves.map((s) => s.status)).toEqual(['working']);
  });
});
