/**
 * 2026-07-28 allows any JSON Schema as a tool's outputSchema. The manifest accepts one when the
 * server serves that revision (the default), and refuses it, positioned, when protocol.versions
 * leaves 2026-07-28 out.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { brief, problemsOf, tempProject } from './helpers.js';

const manifest = (versions: string) => `server: { name: lists, version: 1.0.0 }
${versions}
tools:
  - name: top_cities
    description: The largest cities.
    inputSchema: { type: object }
    outputSchema:
      type: array
      items: { type: string }
`;

describe('a non-object outputSchema', () => {
  test('is accepted when the server serves 2026-07-28 (the default)', async () => {
    const dir = await tempProject({ 'manifest.yaml': manifest('') });
    const { model } = await loadManifest(path.join(dir, 'manifest.yaml'));
    expect(model.protocolVersions[0]).toBe('2026-07-28');
    expect(model.tools[0]!.outputSchema).toMatchObject({ type: 'array' });
  });

  test('is refused at its type when protocol.versions leaves 2026-07-28 out', async () => {
    const dir = await tempProject({ 'manifest.yaml': manifest('protocol: { versions: [2025-11-25] }') });
    const problems = await problemsOf(path.join(dir, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(problems.map(brief)).toEqual(['8:13 /tools/0/outputSchema/type outputSchema must describe an object, not "array"']);
  });
});

describe('$anchor', () => {
  test('is kept verbatim, and a name used twice in one tool schema is a positioned problem', async () => {
    const anchors = (second: string) => `server: { name: anchors, version: 1.0.0 }
tools:
  - name: t
    description: Anchored.
    inputSchema:
      type: object
      $defs:
        a: { $anchor: first, type: string }
        b: { $anchor: ${second}, type: number }
      properties:
        a: { $ref: '#/$defs/a' }
        b: { $ref: '#/$defs/b' }
`;
    const ok = await tempProject({ 'manifest.yaml': anchors('second') });
    const { model } = await loadManifest(path.join(ok, 'manifest.yaml'));
    expect(model.tools[0]!.wire['inputSchema']).toMatchObject({ $defs: { a: { $anchor: 'first' }, b: { $anchor: 'second' } } });
    const twice = await tempProject({ 'manifest.yaml': anchors('first') });
    const problems = await problemsOf(path.join(twice, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(problems.map(brief)).toEqual(["9:23 /tools/0/inputSchema/$defs/b/$anchor duplicate $anchor 'first' (first at /$defs/a)"]);
  });
});
