/**
 * The client's task handle, in both eras over Streamable HTTP: the generated weather client's
 * `tools.climateReport.task()` (status, validated result, cancel), and a task that asks for input,
 * answered from the client's own elicitation handler.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, TaskCancelledError } from '../../examples/client-app/client/client.js';
import { createServer } from '../../examples/weather/server/generated/server.js';
import { handlers } from '../../examples/weather/server/handlers/index.js';
import type { HttpListener } from '../../src/runtime/index.js';
import { OutputValidationError, openSession, startToolTask } from '../../src/runtime/client/index.js';
import { taskServer } from './task-server.js';

const ERAS = ['2026-07-28', '2025-11-25'] as const;

describe.each(ERAS)('client tasks at %s', (era) => {
  let weather: HttpListener;
  let tasks: HttpListener;
  let demo: ReturnType<typeof taskServer>;
  beforeAll(async () => {
    weather = await createServer(handlers, { logger: () => {} }).listenHttp({ port: 0, host: '127.0.0.1' });
    demo = taskServer();
    tasks = await demo.server.listenHttp({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await weather?.close();
    await tasks?.close();
  });

  it('starts a task, reads its status, and resolves with the validated structuredContent', async () => {
    const client = await connect({ url: weather.url, protocolVersions: [era] });
    expect(client.server.protocolVersion).toBe(era);
    const handle = await client.tools.climateReport.task({ location: 'Lisbon', years: 3 });
    expect(handle.taskId).not.toBe('');
    expect(['working', 'completed']).toContain((await handle.status()).status);
    const report = await handle.result();
    expect(report).toEqual({ location: 'Lisbon', years: 3, averageCelsius: expect.any(Number) });
    expect((await handle.status()).status).toBe('completed');
    await client.close();
  });

  it('cancel() stops it: the status turns cancelled and result() rejects with TaskCancelledError', async () => {
    const client = await connect({ url: weather.url, protocolVersions: [era] });
    const handle = await client.tools.climateReport.task({ location: 'Oslo', years: 30 });
    await handle.cancel();
    expect((await handle.status()).status).toBe('cancelled');
    await expect(handle.result()).rejects.toBeInstanceOf(TaskCancelledError);
    await client.close();
  });

  it('a task asking for input is answered by the client’s elicitation handler', async () => {
    const asked: string[] = [];
    const session = await openSession({
      url: tasks.url,
      protocolVersions: [era],
      handlers: { elicitation: (params) => (asked.push(String(params['message'])), { action: 'accept', content: { ok: true } }) },
    });
    const handle = await startToolTask(session, { name: 'approve' }, {});
    expect(await handle.result()).toMatchObject({ content: [{ type: 'text', text: 'approved' }] });
    expect(asked).toEqual(['Approve?']);
    await session.close();
  });

  it('a result that breaks the outputSchema rejects like a plain call', async () => {
    const session = await openSession({ url: tasks.url, protocolVersions: [era] });
    // The binding's validator demands a field the export never returns.
    const strict = Object.assign((value: unknown): value is unknown => typeof value === 'object' && value !== null && 'checksum' in value, { errors: [] });
    const handle = await startToolTask(session, { name: 'export_report', validateOutput: strict }, { rows: 1 });
    demo.release();
    const error = await handle.result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    await session.close();
  });
});
