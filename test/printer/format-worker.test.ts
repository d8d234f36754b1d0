/**
 * Large batches of units are formatted on a worker thread (format.ts, format-worker.ts): the same
 * bytes as in-process, and only from FORMAT_WORKER_THRESHOLD units on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FORMAT_WORKER_THRESHOLD, formatUnit } from '../../src/printer/format.js';
import { repoRoot } from '../server/support.js';

const BOOTSTRAP = join(repoRoot, 'test/support/ts-worker-bootstrap.mjs');
const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-format-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Formats `units` all in one turn (one batch), workers started through `bootstrap` (none: in-process). */
async function formatAll(units: string[], bootstrap: string | undefined): Promise<string[]> {
  const before = process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'];
  if (bootstrap === undefined) delete process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'];
  else process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = bootstrap;
  try {
    return await Promise.all(units.map((unit) => formatUnit(unit, undefined)));
  } finally {
    if (before === undefined) delete process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'];
    else process.env['MCP_GEN_TS_WORKER_BOOTSTRAP'] = before;
  }
}

const unit = (i: number): string =>
  `/** Tool ${i}. */\nexport interface Tool${i}Input { name: string; count?: number; tags: string[]; nested: { deep: { deeper: ${'"a" | '.repeat(i % 30)}"b" } } }\n`;

describe('formatUnit on a worker thread', () => {
  it('gives the in-process bytes for a batch of FORMAT_WORKER_THRESHOLD units', async () => {
    const units = Array.from({ length: FORMAT_WORKER_THRESHOLD }, (_, i) => unit(i));
    const inProcess = await formatAll(units, undefined);
    expect(inProcess[29]).toContain("deeper:\n");
    expect(await formatAll(units, BOOTSTRAP)).toEqual(inProcess);
  });

  it('uses a worker from FORMAT_WORKER_THRESHOLD units on, not below', async () => {
    // A bootstrap that cannot load makes any worker fail: only a batch that used one fails.
    const broken = join(dir, 'missing-bootstrap.mjs');
    await expect(formatAll(Array.from({ length: FORMAT_WORKER_THRESHOLD }, (_, i) => unit(i)), broken)).rejects.toThrow();
    expect(await formatAll(Array.from({ length: FORMAT_WORKER_THRESHOLD - 1 }, (_, i) => unit(i)), broken)).toHaveLength(FORMAT_WORKER_THRESHOLD - 1);
  });
});
