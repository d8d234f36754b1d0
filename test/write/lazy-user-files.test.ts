/**
 * A user-owned file that exists is kept without its planned content ever being read, and a tool's
 * handler skeleton is only rendered when read: a warm run of a large server renders none.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolHandlerFile } from '../../src/emit/server/user-files.js';
import type { PlannedFile } from '../../src/write/planned-file.js';
import { writeOutput } from '../../src/write/writer.js';
import { loadModel, repoRoot } from '../server/support.js';

describe('user-owned skeletons', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-gen-lazy-user-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("are rendered when read, and the writer does not read a kept one's content", async () => {
    const model = await loadModel(join(repoRoot, 'examples', 'weather', 'manifest.yaml'));
    const tool = model.tools[0];
    if (!tool) throw new Error('the example has tools');
    const planned = toolHandlerFile(tool);
    // A getter: nothing is rendered until the content is asked for.
    expect(typeof Object.getOwnPropertyDescriptor(planned, 'content')?.get).toBe('function');
    const text = planned.content;
    expect(text).toContain(`export const ${tool.ids.camel}`);
    expect(toolHandlerFile(tool).content).toBe(text);

    await writeOutput(dir, [planned], { banner: {} });
    let reads = 0;
    const counted: PlannedFile = Object.defineProperty({ ...planned }, 'content', {
      enumerable: true,
      get: () => {
        reads++;
        return text;
      },
    });
    const report = await writeOutput(dir, [counted], { banner: {} });
    expect(report.kept).toEqual([planned.path]);
    expect(reads).toBe(0);
    expect(await readFile(join(dir, planned.path), 'utf8')).toBe(text);
  });
});
