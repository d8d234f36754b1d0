/**
 * Real clients against a generated server (issue 39, item 1): the AI SDK, mcp-remote (driven over
 * stdio as a desktop host drives it), Mastra, mcp-use, the OpenAI Agents SDK, LangChain's adapters,
 * the Inspector's CLI and mcporter, each over stdio, Streamable HTTP and the legacy SSE transport
 * where it has one, in each revision it speaks. Each runs the six cases of peers/run-client.mjs in
 * a process of its own; the HTTP server is started once and shared, and must survive everything.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOurServer, collect, startServer, type BuiltServer, type RunningServer } from './our-server.js';
import { installPeers, limiter, node22, peersDir } from './peers.js';
import { newTable, render, writeSection, type Outcome } from './table.js';

const CASES = ['lists tools', 'typed call', 'invalid call', 'cancels', 'closes during a call', 'reconnects'];

/** Each client: its transports and revisions (undefined: whatever it negotiates by default). */
const CLIENTS: Record<string, { transports: string[]; revisions: (string | undefined)[] }> = {
  'ai-sdk': { transports: ['stdio', 'http', 'sse'], revisions: ['2026-07-28', '2025-11-25'] },
  'mcp-remote': { transports: ['http', 'sse'], revisions: [undefined] },
  mastra: { transports: ['stdio', 'http'], revisions: ['2026-07-28', 'legacy'] },
  'mcp-use': { transports: ['stdio', 'http', 'sse'], revisions: [undefined] },
  'openai-agents': { transports: ['stdio', 'http', 'sse'], revisions: [undefined] },
  langchain: { transports: ['stdio', 'http', 'sse'], revisions: [undefined] },
  inspector: { transports: ['stdio', 'http', 'sse'], revisions: [undefined] },
  mcporter: { transports: ['stdio', 'http'], revisions: [undefined] },
};

/** Why a combination cannot run at all, whatever the client does (none now: the server also serves legacy SSE). */
function notApplicable(_transport: string): string | undefined {
  return undefined;
}

const table = newTable('Real clients against a generated server', ['client', 'transport', 'revision'], CASES);
const threeAtATime = limiter(3);
/** HTTP runs share one server: one at a time, so a crash is charged to the run that caused it. */
const httpOneAtATime = limiter(1);
let built: BuiltServer | undefined;
let http: RunningServer | undefined;
/** Each crash of the shared server: the runs that were going on, and what it wrote. */
const crashes: { during: string[]; stderr: string }[] = [];
const running = new Set<string>();

/**
 * The shared HTTP server, started again after a crash (which is recorded) so that one client's
 * crash of it is charged to the runs that were going on, not to every client after them.
 */
async function sharedServer(): Promise<RunningServer> {
  if (http !== undefined && !http.alive()) {
    crashes.push({ during: [...running], stderr: http.stderr() });
    http = undefined;
  }
  http ??= await startServer(process.execPath, [built!.main, '--http', '--port', '0']);
  return http;
}

beforeAll(async () => {
  const installing = installPeers();
  built = await buildOurServer();
  await sharedServer();
  await installing;
}, 300_000);

afterAll(async () => {
  await http?.close();
  built?.remove();
  const file = writeSection('clients', table);
  process.stdout.write(`\n${render(table)}\n(written to ${file})\n`);
});

interface Run {
  revision: string | undefined;
  outcomes: Record<string, Outcome>;
  output: string;
}

/** Runs the six cases with one client over one transport in one revision, in a process of its own. */
async function runClient(client: string, transport: string, revision: string | undefined): Promise<Run> {
  const name = `${client} over ${transport} (${revision ?? 'default'})`;
  const slot = transport === 'stdio' ? threeAtATime : <T>(job: () => Promise<T>) => httpOneAtATime(() => threeAtATime(job));
  const run = await slot(async () => {
    // The legacy HTTP+SSE transport starts at GET /sse beside the endpoint (legacy-sse.ts).
    const endpoint = transport === 'stdio' ? undefined : (await sharedServer()).url;
    const target =
      endpoint === undefined ? { command: process.execPath, args: [built!.main] }
      : transport === 'sse' ? { url: endpoint.replace(/\/mcp$/, '/sse'), endpoint }
      : { url: endpoint };
    const args = [join(peersDir, 'run-client.mjs'), client, transport, JSON.stringify(target), ...(revision === undefined ? [] : [revision])];
    running.add(name);
    try {
      return await collect(node22, args, { cwd: peersDir, timeoutMs: 150_000 });
    } finally {
      running.delete(name);
      if (transport !== 'stdio') await sharedServer();
    }
  });
  const outcomes: Record<string, Outcome> = {};
  let negotiated: string | undefined;
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('WILD-CASE ')) {
      const { name, ok, detail } = JSON.parse(line.slice('WILD-CASE '.length)) as { name: string } & Outcome;
      outcomes[name] = { ok, detail };
    } else if (line.startsWith('WILD-REVISION ')) negotiated = line.slice('WILD-REVISION '.length).trim();
  }
  for (const name of CASES) outcomes[name] ??= { ok: false, detail: `not reached (exit ${run.code}): ${run.output.split('\n').slice(-4).join(' ')}` };
  // What was asked for, and what was negotiated when the client says and it differs.
  const shown = negotiated !== undefined && revision !== undefined && negotiated !== revision ? `${revision} → ${negotiated}` : (negotiated ?? revision);
  return { revision: shown, outcomes, output: run.output };
}

const combinations = Object.entries(CLIENTS).flatMap(([client, { transports, revisions }]) =>
  transports.flatMap((transport) => revisions.map((revision) => ({ client, transport, revision }))),
);

describe.concurrent('real clients against a generated server', () => {
  it.each(combinations.map((c) => [`${c.client} over ${c.transport}${c.revision ? ` (${c.revision})` : ''}`, c] as const))('%s', async (_, c) => {
    const reason = notApplicable(c.transport);
    if (reason !== undefined) {
      table.rows.push({ key: [c.client, c.transport, c.revision ?? 'default'], outcomes: Object.fromEntries(CASES.map((name) => [name, { ok: 'n/a', detail: reason }])) });
      return;
    }
    const run = await runClient(c.client, c.transport, c.revision);
    table.rows.push({ key: [c.client, c.transport, run.revision ?? c.revision ?? 'default'], outcomes: run.outcomes });
    const failed = Object.entries(run.outcomes).filter(([, outcome]) => outcome.ok === false);
    expect(failed.map(([name, outcome]) => `${name}: ${outcome.detail}`).join('\n'), run.output.slice(-2000)).toBe('');
  }, 180_000);
});

describe('the shared HTTP server', () => {
  it('never crashed, wrote after end or threw an uncaught error', async () => {
    await sharedServer();
    const stderr = [...crashes.map((crash) => crash.stderr), http?.stderr() ?? ''];
    const report = crashes.map((crash) => `crashed during ${crash.during.join(', ')}:\n${crash.stderr.split('\n').slice(0, 12).join('\n')}`);
    expect(report.join('\n\n')).toBe('');
    expect(stderr.join('\n')).not.toMatch(/ERR_STREAM_WRITE_AFTER_END|Uncaught|unhandled/i);
  });
});
