/**
 * Rows of our client's calls (issue 27 items 1–4), each on its own connection:
 * - C1: a task's progress reaches `.task(input, { onProgress })` while the task runs, not only while
 *   its first request is open. 2025-11-25 keeps the progress token valid for the task's life; the
 *   2026-07-28 tasks extension has no progress once the task exists, so there only the step sent
 *   before the call became a task arrives.
 * - C2: `.task()` carries `_meta` and `logLevel` as a plain call does.
 * - C3: a tool the client was not generated with (the client of names.yaml against the main server)
 *   is called by wire name with `callToolByName`: the whole result, its structuredContent once
 *   `listTools()` has listed it with an outputSchema, `ToolError` for `isError`.
 * - C4: a call needing a capability the client did not declare (URL elicitation, sampling tools)
 *   rejects with `ToolError` naming it in both eras (a tool error at 2025-11-25, -32021 at 2026-07-28).
 * - C5: a URL elicitation the server requires before the call (-32042 at 2025-11-25, an
 *   input-required result at 2026-07-28) reaches the `elicitation.url` handler; the call then succeeds.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Combination } from './cells.js';
import { until, type OurClient, type OurClientModule } from './clients.js';
import type { RowContext } from './rows.js';

export const CALL_ROWS = [
  { id: 'C1', title: "a task's progress reaches onProgress while the task runs" },
  { id: 'C2', title: '.task() carries the call options (_meta, logLevel)' },
  { id: 'C3', title: 'a tool unknown at generation, called by wire name (callToolByName)' },
  { id: 'C4', title: 'a call needing an undeclared capability rejects with ToolError in both eras' },
  { id: 'C5', title: 'a required URL elicitation goes to the url handler, then the call succeeds' },
] as const;
type CallRowId = (typeof CALL_ROWS)[number]['id'];

const OURS_ONLY: Record<CallRowId, string> = {
  C1: "`.task(input, { onProgress })` is our client's task API (the SDK 2.x client has none; the SDK 1.x client's tasks are rows T1–T3)",
  C2: "`.task(input, { _meta, logLevel })` is our client's task API (the SDK clients' per-call _meta is row 10)",
  C3: "callToolByName is our generated client's; the SDK clients are untyped and call any name (row 1a)",
  C4: "the row checks our client's documented error class (ToolError with requiredCapabilities)",
  C5: "routing a required URL elicitation to the url handler and calling again is our client's; the SDK clients leave -32042 to the app",
};

/** Why one of these rows cannot run in a combination, or undefined when it runs. */
export function callRowNotApplicable(c: Combination, row: string): string | undefined {
  if (!CALL_ROWS.some((r) => r.id === row)) return undefined;
  const id = row as CallRowId;
  if (c.client !== 'ours') return OURS_ONLY[id];
  if (c.server !== 'ours' && id !== 'C3') {
    return id === 'C1' || id === 'C2'
      ? 'the SDK fixture servers serve no task tools (task_count, task_trace)'
      : 'the SDK fixture servers serve no tool that needs an undeclared capability or a URL elicitation first (needs_capability, connect_account)';
  }
  return undefined;
}

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';

interface TaskHandle {
  result(): Promise<unknown>;
}
type TaskMethod = (input: unknown, options?: object) => Promise<TaskHandle>;
interface ConnectedClient extends OurClient {
  callToolByName(name: string, input?: object, options?: object): Promise<unknown>;
  listTools(): Promise<{ name: string }[]>;
}

/** Our client module connected to the cell's main server, protocol pinned to the cell's era. */
async function open(t: RowContext, module: OurClientModule, extra: object = {}): Promise<ConnectedClient> {
  const location = t.location;
  return (await module.connect({
    ...('url' in location ? { url: location.url } : { command: location.command, args: location.args, stderr: 'ignore', shutdownGraceMs: 500 }),
    protocolVersions: [t.combination.era],
    ...extra,
  })) as ConnectedClient;
}

async function using(client: ConnectedClient, body: (client: ConnectedClient) => Promise<void>): Promise<void> {
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

function taskMethod(client: OurClient, name: string): TaskMethod {
  const method = (client.tools[name] as unknown as { task?: TaskMethod } | undefined)?.task;
  if (method === undefined) throw new Error(`the generated client has no tools.${name}.task`);
  return method;
}

async function rowTaskProgress(t: RowContext): Promise<void> {
  await using(await open(t, t.ourClient()), async (client) => {
    const seen: number[] = [];
    const handle = await taskMethod(client, 'taskCount')({ steps: 10 }, { onProgress: (p: { progress: number }) => seen.push(p.progress) });
    expect(await handle.result()).toMatchObject({ content: [{ type: 'text', text: 'counted to 10' }] });
    if (t.combination.era === '2025-11-25') {
      // The token stays valid for the task's life: every step, in order.
      await until(() => seen.length >= 10, 3000, 'ten progress notifications');
      expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    } else {
      // The tasks extension carries no progress once the task exists: the step sent before it.
      expect(seen).toEqual([1]);
    }
  });
}

async function rowTaskOptions(t: RowContext): Promise<void> {
  const logs: { level: string; data: unknown }[] = [];
  const onLog = (message: { level: string; data: unknown }) => logs.push({ level: message.level, data: message.data });
  await using(await open(t, t.ourClient(), { onLog }), async (client) => {
    const handle = await taskMethod(client, 'taskTrace')({}, { _meta: { traceparent: TRACEPARENT, 'example.com/tag': 'task' }, logLevel: 'error' });
    expect(await handle.result()).toEqual({ traceparent: TRACEPARENT, tag: 'task' });
    // The level reached the server: the error message comes, the warning below it does not.
    await until(() => logs.length >= 1, 3000, 'the error log message');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs).toEqual([{ level: 'error', data: { level: 'error' } }]);
  });
}

async function rowUnknownTool(t: RowContext): Promise<void> {
  // names.yaml's client knows résumé only: every tool of the main server is new to it.
  const module = t.namesClient();
  await using(await open(t, module), async (client) => {
    expect(Object.keys(client.tools)).not.toContain('trace');
    // Not listed yet: the whole result.
    expect(await client.callToolByName('trace', {}, { _meta: { traceparent: TRACEPARENT } })).toMatchObject({
      structuredContent: { traceparent: TRACEPARENT, tag: '' },
      content: [{ type: 'text' }],
    });
    // Listed with an outputSchema: its structuredContent, like a generated method.
    expect((await client.listTools()).map((tool) => tool.name)).toContain('trace');
    expect(await client.callToolByName('trace', {})).toEqual({ traceparent: '', tag: '' });
    // isError still rejects with ToolError: interview asks for an elicitation this client cannot answer.
    const error = await client.callToolByName('interview', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(module.ToolError);
  });
}

async function rowUndeclared(t: RowContext): Promise<void> {
  const module = t.ourClient();
  const asked: string[] = [];
  const handlers = {
    elicitation: (params: { message?: unknown }) => (asked.push(String(params.message)), { action: 'decline' }),
    sampling: () => (asked.push('sampling'), { role: 'assistant', content: { type: 'text', text: 'no' }, model: 'm' }),
  };
  await using(await open(t, module, { handlers }), async (client) => {
    const needs = client.tools['needsCapability'] as (input: unknown) => Promise<unknown>;
    const connectAccount = client.tools['connectAccount'] as (input: unknown) => Promise<unknown>;
    // [call, what is missing, whether a 2025-11-25 server names it]: its tool error is text only, its -32042 is URL elicitation.
    const cases: [() => Promise<unknown>, object, boolean][] = [
      [() => needs({ what: 'url_elicitation' }), { elicitation: { url: {} } }, false],
      [() => needs({ what: 'sampling_tools' }), { sampling: { tools: {} } }, false],
      // Without a url handler, a required URL elicitation is the same refusal.
      [() => connectAccount({ id: randomUUID() }), { elicitation: { url: {} } }, true],
    ];
    for (const [call, required, named2025] of cases) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(module.ToolError);
      const named = t.combination.era === '2026-07-28' || named2025 ? required : undefined;
      expect((error as { requiredCapabilities?: unknown }).requiredCapabilities).toEqual(named);
    }
    expect(asked).toEqual([]);
  });
}

async function rowUrlRequired(t: RowContext): Promise<void> {
  const asked: string[] = [];
  const handlers = {
    elicitation: {
      form: () => ({ action: 'decline' }),
      url: (params: { url?: unknown }) => (asked.push(String(params.url)), { action: 'accept' }),
    },
  };
  await using(await open(t, t.ourClient(), { handlers }), async (client) => {
    const id = randomUUID();
    const connectAccount = client.tools['connectAccount'] as (input: unknown) => Promise<unknown>;
    expect(await connectAccount({ id })).toMatchObject({ content: [{ type: 'text', text: `connected ${id}` }] });
    expect(asked).toEqual([`https://auth.example.com/connect/${id}`]);
  });
}

export const CALL_ROW_BODIES: Record<CallRowId, (t: RowContext) => Promise<void>> = {
  C1: rowTaskProgress,
  C2: rowTaskOptions,
  C3: rowUnknownTool,
  C4: rowUndeclared,
  C5: rowUrlRequired,
};
