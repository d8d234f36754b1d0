/**
 * A non-object outputSchema (allowed from 2026-07-28 on) is served to stateful sessions without
 * its outputSchema and with text-only results (src/runtime/features/tools/tools.ts; test/runtime/http-stateless
 * and lazy-lists show it on the wire). Generation says so once per tool, naming the tool and the
 * revisions that lose it, at the schema's position, on stderr and in `--json`.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { tempProject } from './helpers.js';

const HINT = "they receive the handler's content, or the value's JSON as one text block when it gives none; wrap the value in an object (`type: object`) to give every client structured results";

function manifest(versions?: string[]): string {
  return [
    'server: { name: s, version: "1" }',
    ...(versions === undefined ? [] : [`protocol: { versions: [${versions.join(', ')}] }`]),
    'tools:',
    '  - name: cities',
    '    inputSchema: { type: object }',
    '    outputSchema:',
    '      type: array',
    '      items: { type: string }',
    '  - name: anything',
    '    inputSchema: { type: object }',
    '    outputSchema: { description: any value }',
    '  - name: weather',
    '    inputSchema: { type: object }',
    '    outputSchema: { type: object }',
    '',
  ].join('\n');
}

async function warningsOf(text: string) {
  const root = await tempProject({ 'manifest.yaml': text });
  return (await loadManifest(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' })).warnings;
}

describe('a tool whose outputSchema is not an object schema', () => {
  it('is one warning per tool, naming it and every stateful revision served, at its outputSchema', async () => {
    expect(await warningsOf(manifest())).toEqual([
      {
        file: 'manifest.yaml',
        line: 6,
        column: 7,
        pointer: '/tools/0/outputSchema',
        message:
          "the outputSchema of tool 'cities' is of type \"array\": only 2026-07-28 clients see it; sessions on 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 get the tool without an outputSchema and its results without structuredContent",
        hint: HINT,
      },
      {
        file: 'manifest.yaml',
        line: 10,
        column: 19,
        pointer: '/tools/1/outputSchema',
        message:
          "the outputSchema of tool 'anything' has no 'type: object' at its root: only 2026-07-28 clients see it; sessions on 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 get the tool without an outputSchema and its results without structuredContent",
        hint: HINT,
      },
    ]);
  });

  it('names only the revisions the manifest serves, and is no warning when it serves 2026-07-28 alone', async () => {
    const messages = (await warningsOf(manifest(['2026-07-28', '2025-11-25']))).map((w) => w.message);
    expect(messages).toHaveLength(2);
    for (const message of messages) expect(message).toContain('sessions on 2025-11-25 get the tool');
    expect(await warningsOf(manifest(['2026-07-28']))).toEqual([]);
  });

  it('prints on stderr with file:line:col and pointer, and lists the warnings in the --json document', async () => {
    const root = await tempProject({ 'manifest.yaml': manifest() });
    const out = await mkdtemp(path.join(tmpdir(), 'mcp-gen-stateful-output-'));
    const lines = { out: [] as string[], err: [] as string[] };
    const code = await main(['server', path.join(root, 'manifest.yaml'), '-o', out, '--json'], { out: (l) => lines.out.push(l), err: (l) => lines.err.push(l) });
    expect(code).toBe(0);
    expect(lines.err.filter((l) => l.startsWith('warning: '))).toEqual([
      expect.stringMatching(/^warning: .*manifest\.yaml:6:7: the outputSchema of tool 'cities' is of type "array": .* \(at \/tools\/0\/outputSchema\) — they receive/),
      expect.stringMatching(/^warning: .*manifest\.yaml:10:19: the outputSchema of tool 'anything' has no 'type: object' at its root: .* \(at \/tools\/1\/outputSchema\) — they receive/),
    ]);
    const document = JSON.parse(lines.out.join('\n')) as { warnings: { pointer: string; line: number; column: number }[] };
    expect(document.warnings.map((w) => `${w.line}:${w.column} ${w.pointer}`)).toEqual(['6:7 /tools/0/outputSchema', '10:19 /tools/1/outputSchema']);
  });
});
