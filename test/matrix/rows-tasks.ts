/**
 * Rows of tasks (issue 14), run against our server by each client that has a tasks API, both
 * transports, both eras. Each row opens its own connection (the matrix's `MatrixClient` has no
 * task surface):
 * - T1: a task is started, read while it works, and its result fetched once it has completed.
 * - T2: a task asks the user for input and gets it from the client's elicitation handler (2026-07-28:
 *   the task turns `input_required` and the client answers with `tasks/update`; 2025-11-25: the
 *   server's elicitation request, tagged with the task, while the task is `input_required`).
 * - T3: `tasks/cancel` aborts the task's handler (its signal) and the task reads `cancelled`.
 * Tasks across processes (`--redis`, polled on another process) are test/tasks/redis-tasks.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Sdk1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { Combination } from './cells.js';
import type { InputRowContext } from './rows-input.js';
import type { Location } from './servers.js';

export const TASK_ROWS = [
  { id: 'T1', title: 'a task is started, polled while working, and its result fetched' },
  { id: 'T2', title: 'a task asking for input gets it from the client (tasks/update at 2026-07-28)' },
  { id: 'T3', title: "tasks/cancel aborts the task's handler and the task reads cancelled" },
] as const;
export type TaskRowId = (typeof TASK_ROWS)[number]['id'];

/** Our server runs the task tools; the SDK 2.x client has no tasks API to drive them with. */
export function taskRowNotApplicable(c: Combination, row: string): string | undefined {
  if (!TASK_ROWS.some((r) => r.id === row)) return undefined;
  if (c.server !== 'ours') return "the task rows drive our server's task tools (task_job, task_confirm, task_sleep), which the SDK fixture servers do not serve";
  if (c.client === 'sdk2') {
    return 'the SDK 2.x client (@modelcontextprotocol/client 2.4.0) has no tasks API: its typed request surface leaves out tasks/get, tasks/result, tasks/list and tasks/cancel (wire types only)';
  }
  return undefined;
}

/** What a row needs from a client: run a task tool to its end, or start it and keep a handle. */
interface TaskClient {
  /** The elicitation messages the client answered. */
  readonly asked: string[];
  /** Starts `name` as a task; `status()` reads it, `result()` waits for its result, `cancel()` asks to cancel it. */
  start(name: string, args: Record<string, unknown>): Promise<{
    status(): Promise<string>;
    result(): Promise<{ text: string; structured: unknown }>;
    cancel(): Promise<void>;
  }>;
  /** What the task_sleep with this id saw (the `was_cancelled` tool). */
  sleeper(id: string): Promise<{ started: boolean; cancelled: boolean }>;
  close(): Promise<void>;
}

function textOf(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as { type?: string; text?: string }[]) : [];
  return blocks
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

const METHODS: Record<string, string> = { task_job: 'taskJob', task_confirm: 'taskConfirm', task_sleep: 'taskSleep' };

interface OurTaskHandle {
  status(): Promise<{ status: string }>;
  result(): Promise<unknown>;
  cancel(): Promise<void>;
}

async function connectTasks(t: InputRowContext): Promise<TaskClient> {
  const { client: kind, era } = t.combination;
  const asked: string[] = [];
  const elicit = (params: { message?: unknown }) => {
    asked.push(String(params.message));
    return { action: 'accept' as const, content: { ok: true } };
  };
  const location: Location = t.location;
  if (kind === 'ours') {
    const client = await t.ourClient().connect({
      ...('url' in location ? { url: location.url } : { command: location.command, args: location.args, stderr: 'ignore', shutdownGraceMs: 500 }),
      protocolVersions: [era],
      handlers: { elicitation: elicit },
    });
    const tools = client.tools as unknown as Record<string, { task(input: unknown): Promise<OurTaskHandle> }>;
    return {
      asked,
      start: async (name, args) => {
        const handle = await (tools[METHODS[name] as string] as { task(input: unknown): Promise<OurTaskHandle> }).task(args);
        return {
          status: async () => (await handle.status()).status,
          result: async () => {
            const value = (await handle.result()) as { content?: unknown };
            // A tool with an outputSchema resolves with its validated structuredContent, like a plain call.
            return name === 'task_job' ? { text: '', structured: value } : { text: textOf(value), structured: undefined };
          },
          cancel: () => handle.cancel(),
        };
      },
      sleeper: async (id) => (await client.tools['wasCancelled']!({ id })) as { started: boolean; cancelled: boolean },
      close: () => client.close(),
    };
  }
  // The SDK 1.x client's experimental tasks (2025-11-25 only; the cell is n/a at 2026-07-28).
  const client = new Sdk1Client({ name: 'matrix-sdk1-tasks', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  await client.connect('url' in location ? new Sdk1Http(new URL(location.url)) : new Sdk1Stdio({ command: location.command, args: location.args, stderr: 'ignore' }));
  return {
    asked,
    start: async (name, args) => {
      const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: { ttl: 60_000 } });
      const first = await stream.next();
      if (first.done === true || first.value.type !== 'taskCreated') throw new Error(`expected taskCreated first, got ${JSON.stringify(first.value)}`);
      const taskId = first.value.task.taskId;
      return {
        status: async () => (await client.experimental.tasks.getTask(taskId)).status,
        result: async () => {
          for await (const message of stream) {
            if (message.type === 'result') return { text: textOf(message.result), structured: message.result.structuredContent };
            if (message.type === 'error') throw message.error;
          }
          throw new Error('the task stream ended without a result');
        },
        cancel: async () => {
          expect((await client.experimental.tasks.cancelTask(taskId)).status).toBe('cancelled');
          await stream.return(undefined);
        },
      };
    },
    sleeper: async (id) => (await client.callTool({ name: 'was_cancelled', arguments: { id } })).structuredContent as { started: boolean; cancelled: boolean },
    close: () => client.close(),
  };
}

async function withTasks(t: InputRowContext, body: (client: TaskClient) => Promise<void>): Promise<void> {
  const client = await connectTasks(t);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

async function rowStartPollResult(t: InputRowContext): Promise<void> {
  await withTasks(t, async (client) => {
    const task = await client.start('task_job', { ms: 600 });
    expect(await task.status()).toBe('working');
    expect(await task.result()).toMatchObject({ structured: { worked: 600 } });
    expect(await task.status()).toBe('completed');
  });
}

async function rowInput(t: InputRowContext): Promise<void> {
  await withTasks(t, async (client) => {
    const task = await client.start('task_confirm', {});
    if (t.combination.era === '2026-07-28') {
      // The question waits in the task until the client polls and answers it with tasks/update.
      let status = await task.status();
      for (const deadline = Date.now() + 5000; status !== 'input_required' && Date.now() < deadline; status = await task.status()) await pause(20);
      expect(status).toBe('input_required');
      expect(client.asked).toEqual([]);
    }
    expect(await task.result()).toMatchObject({ text: 'confirmed' });
    expect(client.asked).toEqual(['Go ahead?']);
    expect(await task.status()).toBe('completed');
  });
}

async function rowCancel(t: InputRowContext): Promise<void> {
  await withTasks(t, async (client) => {
    const id = randomUUID();
    const task = await client.start('task_sleep', { id });
    await eventually(async () => (await client.sleeper(id)).started, 5000, 'the task_sleep handler started');
    expect(await task.status()).toBe('working');
    await task.cancel();
    await eventually(async () => (await client.sleeper(id)).cancelled, 3000, "the task's handler saw its signal abort");
    expect(await task.status()).toBe('cancelled');
  });
}

export const TASK_ROW_BODIES: Record<TaskRowId, (t: InputRowContext) => Promise<void>> = {
  T1: rowStartPollResult,
  T2: rowInput,
  T3: rowCancel,
};

/** Asks `condition` every 20 ms until it holds; throws after `ms`. */
async function eventually(condition: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  for (const deadline = Date.now() + ms; !(await condition()); await pause(20)) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
