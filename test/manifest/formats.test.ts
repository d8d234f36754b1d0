import { describe, expect, test } from 'vitest';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { brief, fixture, problemsOf, tempProject } from './helpers.js';
import path from 'node:path';

describe('JSON manifests', () => {
  test('load to the same model as the equivalent YAML', async () => {
    const yaml = await loadManifest(fixture('valid/manifest.yaml'));
    const json = await loadManifest(fixture('valid/manifest.json'));
    expect(json.warnings).toEqual([]);
    expect({ ...json.model, source: '' }).toEqual({ ...yaml.model, source: '' });
  });

  test('report mistakes at JSON line:column', async () => {
    const root = await tempProject({
      'manifest.json': [
        '{',
        '  "server": { "name": "x", "version": "1" },',
        '  "tools": [',
        '    { "name": "ok", "inputSchema": { "type": "object" } },',
        '    { "name": "no slash", "inputSchema": { "type": "object", "properties": { "a": { "$ref": "#/$defs/A" } } } }',
        '  ]',
        '}',
      ].join('\n'),
    });
    const problems = await problemsOf(path.join(root, 'manifest.json'), { displayPath: 'manifest.json' });
    expect(problems.map(brief)).toEqual([
      "5:15 /tools/1/name 'no slash' is not a valid tool name",
      "5:93 /tools/1/inputSchema/properties/a/$ref $ref '#/$defs/A' points to nothing",
    ]);
  });

  test('invalid JSON is reported where the parser stopped', async () => {
    const root = await tempProject({ 'manifest.json': '{\n  "server": { "name": "x", "version": "1" },\n}\n' });
    const problems = await problemsOf(path.join(root, 'manifest.json'), { displayPath: 'manifest.json' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'manifest.json', line: 3, column: 1, pointer: '' });
    expect(problems[0]!.message).toMatch(/^invalid JSON: /);
  });

  test('JSON that ends too early is reported at its end, not without a position', async () => {
    const root = await tempProject({ 'manifest.json': '{\n  "server": { "name": "x", "version": "1" },\n  "tools": [\n' });
    const problems = await problemsOf(path.join(root, 'manifest.json'), { displayPath: 'manifest.json' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'manifest.json', line: 4, column: 1, pointer: '' });
    expect(problems[0]!.message).toMatch(/^invalid JSON: /);
  });
});

describe('YAML syntax errors', () => {
  test('are reported at their position, and nothing else is attempted', async () => {
    const root = await tempProject({ 'manifest.yaml': 'server:\n  name: x\n\tversion: 1\ntools: [{ name: "bad name" }]\n' });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(problems).toEqual([
      { file: 'manifest.yaml', line: 3, column: 1, pointer: '', message: 'YAML syntax error: Tabs are not allowed as indentation' },
    ]);
  });

  test('an unclosed flow sequence is reported where the parser gave up', async () => {
    const root = await tempProject({ 'manifest.yaml': 'server:\n  name: x\n  version: "1"\nprotocol:\n  versions: [2025-11-25\ntools: []\n' });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map((d) => `${d.line}:${d.column}`)).toEqual(['6:1']);
    expect(problems[0]!.message).toMatch(/^YAML syntax error: Flow sequence .* end with a \]$/);
  });

  test('duplicate keys are syntax errors at the second key', async () => {
    const root = await tempProject({ 'manifest.yaml': 'server:\n  name: x\n  version: "1"\n  name: y\n' });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(problems.map((d) => `${d.line}:${d.column}`)).toEqual(['4:3']);
    expect(problems[0]!.message).toContain('unique');
  });

  test('a missing manifest is one problem without a position', async () => {
    const problems = await problemsOf('/nonexistent/manifest.yaml', { displayPath: 'manifest.yaml' });
    expect(problems).toEqual([{ file: 'manifest.yaml', line: 0, column: 0, pointer: '', message: 'manifest not found' }]);
  });

  test('a document that is not a mapping says what a manifest looks like', async () => {
    const root = await tempProject({ 'manifest.yaml': '- just\n- a list\n' });
    const problems = await problemsOf(path.join(root, 'manifest.yaml'));
    expect(problems.map(brief)).toEqual(['1:1  a manifest is a mapping with at least a `server` entry']);
  });
});
