/**
 * The units of a types file compiled on a worker thread (type-unit-jobs.ts) are the bytes compiled
 * in-process, and a unit that fails rejects with the in-process error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestText } from '../../bench/scale/make-manifest.mjs';
import { typesFile } from '../../src/emit/types/types-file.js';
import { runTypeUnitJob, TYPE_WORKER_THRESHOLD, typeUnitCompiler, type TypeUnitJob } from '../../src/emit/types/type-unit-jobs.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { loadModel, repoRoot } from '../server/support.js';

const BOOTSTRAP = join(repoRoot, 'test/support/ts-worker-bootstrap.mjs');

/** Runs `work` with workers on (the tests' bootstrap loads the TypeScript sources) or off (none: in-process). */
async function withWorkers<T>(on: boolean, work: () => Promise<T>, bootstrap = BOOTSTRAP): Promise<T> {
  const before = process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'];
  if (on) process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = bootstrap;
  else delete process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'];
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'];
    else process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = before;
  }
}

let dir: string;
let scale: ServiceModel;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gen-type-workers-'));
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, manifestText({ tools: 120 }));
  scale = await loadModel(manifest);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('types units on a worker thread', () => {
  it('give the in-process types.ts for 120 tools of the scale manifest', async () => {
    expect(scale.tools.length).toBeGreaterThanOrEqual(TYPE_WORKER_THRESHOLD);
    const inProcess = await withWorkers(false, () => typesFile(scale));
    expect(await withWorkers(true, () => typesFile(scale))).toBe(inProcess);
    expect(inProcess).toContain('export interface GetInvoice1Input');
  });

  it('reject a failing unit with the in-process error, and answer the others', async () => {
    const good: TypeUnitJob = { kind: 'tool', tool: { inputSchema: { type: 'object', properties: { a: { type: 'string' } } } }, names: { input: 'GoodInput' } };
    // A reference to a definition that is not there: json-schema-to-typescript cannot resolve it.
    const bad: TypeUnitJob = { kind: 'tool', tool: { inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } }, names: { input: 'BadInput' } };
    const expected = await runTypeUnitJob(bad, new Map()).then(
      () => 'no error',
      (error: Error) => error.message,
    );
    expect(expected).not.toBe('no error');
    const jobs = [bad, ...Array.from({ length: TYPE_WORKER_THRESHOLD }, () => good)];
    const outcomes = await withWorkers(true, () => {
      const compile = typeUnitCompiler(new Map());
      return Promise.allSettled(jobs.map((job) => compile(job)));
    });
    expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: { message: expected } });
    expect(outcomes[1]).toEqual({ status: 'fulfilled', value: await runTypeUnitJob(good, new Map()) });
  });

  it('go to a worker from TYPE_WORKER_THRESHOLD units on, and stay in-process below it', async () => {
    // A bootstrap that cannot load makes any worker fail: only a run that used one fails.
    const broken = join(dir, 'missing-bootstrap.mjs');
    const job: TypeUnitJob = { kind: 'tool', tool: { inputSchema: { type: 'string' } }, names: { input: 'S' } };
    const run = (count: number) =>
      withWorkers(true, () => {
        const compile = typeUnitCompiler(new Map());
        return Promise.all(Array.from({ length: count }, () => compile(job)));
      }, broken);
    await expect(run(TYPE_WORKER_THRESHOLD)).rejects.toThrow();
    expect(await run(TYPE_WORKER_THRESHOLD - 1)).toHaveLength(TYPE_WORKER_THRESHOLD - 1);
  });
});
