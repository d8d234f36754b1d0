/**
 * `.json` inputs are read with JSON.parse and placed lazily (src/load/json-source.ts); the same
 * text read as YAML (JSON is YAML) goes through the position-tracking parser. Both must report the
 * same problems and warnings at the same line, column and pointer.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/load/diagnostics.js';
import { parseJsonSource } from '../../src/load/json-source.js';
import { parseSource } from '../../src/load/yaml-positions.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { problemsOf, tempProject } from './helpers.js';

/** Everything but the file name, which differs by extension. */
const placed = (d: Diagnostic): string => `${d.line}:${d.column} ${d.pointer} ${d.message}${d.hint ? ` — ${d.hint}` : ''}`;

const BROKEN = [
  '{',
  '  "server": { "name": "x", "version": "1", "colour": "red" },',
  '  "tools": [',
  '    { "name": "a", "inputSchema": { "type": "object", "properties": { "p": { "type": "string", "pattern": "([a-z]" } } } },',
  '    { "name": "a", "inputSchema": { "type": "object", "properties": { "q": { "$ref": "#/$defs/Nowhere" } } } },',
  '    { "name": "c", "inputSchema": { "type": "object", "properties": { "r": { "type": "string", "format": "colour" } } } },',
  '    { "name": "d", "inputSchema": { "type": "object", "properties": { "s": { "type": "strin" } } } },',
  '    { "name": "e", "inputSchema": { "type": "object", "properties": { "t": { "type": "object", "x-mcp-header": "T" } } } },',
  '    { "name": "f", "inputSchema": { "type": "object", "properties": { "u": { "$ref": "./item.json" } } } }',
  '  ]',
  '}',
].join('\n');

const ITEM = ['{', '  "type": "object",', '  "properties": {', '    "v": { "type": "string", "pattern": "(x" }', '  }', '}'].join('\n');

const WARNED = [
  '{',
  '  "server": { "name": "x", "version": "1" },',
  '  "tools": [',
  '    { "name": "get/user", "inputSchema": { "type": "object", "properties": { "a": { "type": "string", "maxlength": 3 } } } },',
  '    { "name": "b", "inputSchema": { "type": "object", "properties": { "b": { "$ref": "./warned.json" } } } }',
  '  ]',
  '}',
].join('\n');

const WARNED_ITEM = '{\n  "type": "string",\n  "tsType": "any",\n  "pattern": "^(a+)+$"\n}\n';

describe('a JSON manifest and the same text read as YAML', () => {
  test('report the same problems at the same places, in the manifest and in a $ref-ed JSON file', async () => {
    const root = await tempProject({ 'manifest.json': BROKEN, 'manifest.yaml': BROKEN, 'item.json': ITEM });
    const json = await problemsOf(path.join(root, 'manifest.json'), { displayPath: 'manifest.json' });
    const yaml = await problemsOf(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(json.map(placed)).toEqual(yaml.map(placed));
    expect(json.map((d) => d.file)).toEqual(yaml.map((d) => d.file.replace('manifest.yaml', 'manifest.json')));
    // Every kind is there: schema, uniqueness, pattern, reference, format, keyword, header, $ref-ed file.
    expect(json.length).toBeGreaterThanOrEqual(8);
    expect(json.filter((d) => d.file === 'item.json').map(placed)).toEqual(["4:41 /properties/v/pattern pattern '(x' is not a valid regular expression: /(x/u: Unterminated group"]);
  });

  test('give the same warnings at the same places', async () => {
    const root = await tempProject({ 'manifest.json': WARNED, 'manifest.yaml': WARNED, 'warned.json': WARNED_ITEM });
    const json = await loadManifest(path.join(root, 'manifest.json'), { displayPath: 'manifest.json' });
    const yaml = await loadManifest(path.join(root, 'manifest.yaml'), { displayPath: 'manifest.yaml' });
    expect(json.warnings.map(placed)).toEqual(yaml.warnings.map(placed));
    expect(json.warnings.length).toBeGreaterThanOrEqual(4);
    expect({ ...json.model, source: '' }).toEqual({ ...yaml.model, source: '' });
  });
});

describe('duplicate member names in JSON', () => {
  const DUPLICATED = '{\n  "server": { "name": "x", "version": "1" },\n  "tools": [],\n  "server": { "name": "y", "version": "2" }\n}\n';

  test('in the manifest: a syntax error at the second name, as the YAML parser places it', async () => {
    const root = await tempProject({ 'manifest.json': DUPLICATED });
    const problems = await problemsOf(path.join(root, 'manifest.json'), { displayPath: 'manifest.json' });
    expect(problems).toEqual(parseSource(DUPLICATED, 'manifest.json', 'json').problems);
    expect(problems.map(placed)).toEqual(['4:3  invalid JSON: Map keys must be unique']);
  });

  test('in a $ref-ed JSON file, deep inside', async () => {
    const item = '{\n  "type": "object",\n  "properties": { "a": { "type": "string", "type": "number" } }\n}\n';
    const manifest = '{ "server": { "name": "x", "version": "1" }, "tools": [{ "name": "t", "inputSchema": { "$ref": "./item.json" } }] }';
    const root = await tempProject({ 'manifest.json': manifest, 'item.json': item });
    const problems = await problemsOf(path.join(root, 'manifest.json'), { displayPath: 'manifest.json' });
    expect(problems.map((d) => `${d.file} ${placed(d)}`)).toEqual(['item.json 3:44  invalid JSON: Map keys must be unique']);
  });

  test('colons, quotes and backslashes inside strings are not mistaken for members', () => {
    const text = '{ "a:b": "c\\":d", "e": ["f:", {"g\\\\": ":"}], "h": {} }';
    const parsed = parseJsonSource(text, 'x.json');
    expect(parsed.problems).toEqual([]);
    expect(parsed.document?.value).toEqual(JSON.parse(text));
    expect(parsed.document?.locate('/e/1/g\\')).toEqual({ line: 1, column: 39 });
  });

  test('a byte-order mark is skipped, and positions still count from the text after it', () => {
    const parsed = parseJsonSource('\ufeff{\n  "a": 1\n}', 'x.json');
    expect(parsed.document?.value).toEqual({ a: 1 });
    expect(parsed.document?.locate('/a')).toEqual({ line: 2, column: 8 });
  });
});
