/**
 * Generation-time limits (issue 6): the schemas of one manifest together are bounded
 * (REF_LIMITS.maxNodesPerManifest), with a positioned error at the schema that went past the bound;
 * each bound is the documented default (docs/manifest.md, "Size limits").
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REF_LIMITS } from '../../src/load/manifest-refs.js';
import { brief, problemsOf, tempProject } from './helpers.js';

describe('generation-time limits', () => {
  test('the documented defaults', () => {
    expect(REF_LIMITS).toEqual({
      maxDepth: 200,
      maxNodesPerSchema: 100_000,
      maxNodesPerManifest: 200_000,
      maxFiles: 200,
      maxFileBytes: 4 * 1024 * 1024,
      maxTotalBytes: 16 * 1024 * 1024,
    });
  });

  test('all schemas of a manifest together are bounded, each tool below its own bound', async () => {
    const saved = { ...REF_LIMITS };
    try {
      REF_LIMITS.maxNodesPerManifest = 50;
      const tool = (i: number): string =>
        `  - name: t${i}\n    inputSchema: { type: object, properties: { ${Array.from({ length: 10 }, (_, j) => `p${j}: { type: string }`).join(', ')} } }\n`;
      const root = await tempProject({ 'manifest.yaml': `server: { name: s, version: "1" }\ntools:\n${Array.from({ length: 8 }, (_, i) => tool(i)).join('')}` });
      const problems = await problemsOf(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
      expect(problems.map(brief)).toEqual([
        expect.stringMatching(/^\d+:18 \/tools\/4\/inputSchema the manifest's schemas are too large: more than 50 nodes together after bundling/),
      ]);
      expect(problems[0]!.hint).toMatch(/split the server/);
    } finally {
      Object.assign(REF_LIMITS, saved);
    }
  });
});
