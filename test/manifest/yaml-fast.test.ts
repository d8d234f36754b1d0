import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInput } from '../../src/load/json-source.js';
import { readManifest } from '../../src/load/manifest.js';
import { fastYamlValue } from '../../src/load/yaml-fast.js';
import { parseSource } from '../../src/load/yaml-positions.js';
import { InputError } from '../../src/load/diagnostics.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const root = path.resolve(import.meta.dirname, '../..');

/** -0 and +0 told apart, key order kept: what the `yaml` library gives and the fast way must match. */
function exact(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? `number:${Object.is(v, -0) ? '-0' : String(v)}` : v));
}

/**
 * When the fast way accepts a text, the `yaml` library must read it with no error, no warning and
 * the same value; the fast way may decline anything (then the `yaml` library reads it as before).
 */
function agreement(text: string): 'fast' | 'declined' | string {
  const fast = fastYamlValue(text);
  if (fast === undefined) return 'declined';
  const full = parseSource(text, 'x.yaml', 'yaml');
  if (!full.document) return `yaml refuses: ${full.problems.map((p) => p.message).join('; ')}`;
  if (full.warnings.length > 0) return `yaml warns: ${full.warnings.map((p) => p.message).join('; ')}`;
  const [a, b] = [exact(full.document.value), exact(fast)];
  return a === b ? 'fast' : `values differ: yaml ${a}, fast ${b}`;
}

const SCALARS = [
  '1', '-1', '+1', '0', '-0', '00', '012', '0777', '08', '0o17', '0O17', '0x1F', '0X1f', '0b101', '1_000', '1,000',
  '1e3', '1E3', '1e+3', '-1.5e-3', '.5', '5.', '+.5', '1.0', '0.0', '-0.0', '00.5', '1.2.3', '1e', 'e1',
  '.inf', '-.inf', '+.inf', '.Inf', '.INF', '.nan', '.NaN', '.NAN', 'nan', 'inf',
  '123456789012345678901234567890', '9007199254740993', '0x', '0o', '-0x1', '-0o7', '+0x1',
  '~', 'null', 'Null', 'NULL', 'nUll', 'true', 'True', 'TRUE', 'tRue', 'false', 'False', 'yes', 'no', 'on', 'off', 'y', 'n',
  '2001-12-14', '2001-12-14t21:59:43.10-05:00', '12:30', '1:20:30', '190:20:30',
  '-', '-.', '.', '+', '=', '<<', '$1', '1%', 'a b', '"x"', "'x'", '"a\\tb\\u00e9\\x41\\U0001F600\\N\\_\\L\\P"',
  "'it''s'", '"multi\\\n  line"', '__proto__', 'constructor', 'a # comment', '"#not a comment"', '!', '!!str 1',
  '!!int "3"', '&a 1', '*a', '[]', '{}', '[1, [2, {a: b}]]', '{a: 1, b: [x, y]}', '{a, b}', '[a: b]', '""', "''",
];

const LAYOUTS = [
  'a: |\n  line\n  line2\n\n',
  'a: |-\n  line\n\n',
  'a: |+\n  line\n\n\nb: 1\n',
  'a: >\n  folded\n  text\n\n  para\nb: 2\n',
  'a: >2-\n    indented\n  x\n',
  'a: |1\n  lead\n',
  'a: plain\n  continued\n  lines\n',
  'a: "quoted\n  folded"\n',
  "a: 'single\n\n  two'\n",
  'a:\n- 1\n- 2\n',
  'a:\n  - b: 1\n    c: 2\n  -   - nested\n',
  'a: 1\r\nb: 2\r\n',
  'a:\t1\n',
  'a:\n\tb: 1\n',
  '---\na: 1\n',
  '---\na: 1\n...\n',
  'a: 1\n---\nb: 2\n',
  '%YAML 1.2\n---\na: 1\n',
  '%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n',
  'a: &x {b: 1}\nc: *x\n',
  'a: !custom 1\n',
  '? [x]\n: 1\n',
  '? a\n: 1\n',
  '~: 1\n',
  'null: 1\n',
  ': 1\n',
  '"null": 1\n',
  '1: a\n"1": b\n',
  '1: a\n01: b\n',
  'a: 1\na: 2\n',
  'a: 1\n"a": 2\n',
  '<<: {b: 1}\n',
  '__proto__: {polluted: 1}\n',
  `${'k'.repeat(1100)}: 1\n`,
  'a: b: c\n',
  'a:\n  b: 1\n c: 2\n',
  '- 1\n- 2\n',
  'just a string\n',
  '',
  '# only a comment\n',
  'a: [1, 2\n',
  'a: "unterminated\n',
  'a: {b: 1}}\n',
  'a: 1 # trailing comment\nb: "x" # another\n',
  'a: x\n  # comment inside\nb: y\n',
  'a:    \nb:\n',
  'a: [\n  1,\n  2,\n]\n',
  'a: {\n  b: 1,\n}\n',
  `a: ${'['.repeat(150)}${']'.repeat(150)}\n`,
  'a: \u00e9t\u00e9\nb: "\u2028"\n',
  'a: \u0085x\n',
];

describe('the fast way in for YAML (yaml-fast.ts)', () => {
  it('agrees with the yaml library on every YAML file of the repository', () => {
    const files = execFileSync('git', ['ls-files', '*.yaml', '*.yml'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(path.join(root, file), 'utf8');
      expect([file, agreement(text)]).toEqual([file, 'fast']);
    }
  });

  it('agrees with the yaml library on awkward scalars as values, items and keys, or declines them', () => {
    let taken = 0;
    for (const scalar of SCALARS) {
      for (const text of [`v: ${scalar}\n`, `v:\n  - ${scalar}\n`, `${scalar}: x\n`, `v: [${scalar}]\n`, `v: {k: ${scalar}}\n`]) {
        const result = agreement(text);
        expect([text, result]).toEqual([text, result === 'declined' ? 'declined' : 'fast']);
        if (result === 'fast') taken++;
      }
    }
    // Most of them are plain enough to take the fast way; the test would prove nothing otherwise.
    expect(taken).toBeGreaterThan(SCALARS.length * 3);
  });

  it('agrees with the yaml library on awkward layouts, or declines them', () => {
    for (const text of LAYOUTS) {
      const result = agreement(text);
      expect([text, result]).toEqual([text, result === 'declined' ? 'declined' : 'fast']);
    }
  });

  it('declines what the two parsers could read differently', () => {
    for (const text of [
      'a: &x {b: 1}\nc: *x\n', // aliases share one object in js-yaml; `yaml` counts them against alias bombs
      'a: !custom 1\n', // `yaml` warns of an unknown tag
      '%YAML 1.2\n---\na: 1\n',
      'a: 1\n---\nb: 2\n',
      '~: 1\n', // a null key: "" to `yaml`, "null" to js-yaml
      'null: 1\n',
      '? [x]\n: 1\n',
      'a: 1\na: 2\n',
      `${'k'.repeat(1100)}: 1\n`, // `yaml` refuses an implicit key this long
      `k${' '.repeat(1100)}: 1\n`,
      '- 1\n- 2\n', // not a mapping: a manifest must be one, and `yaml` says so with a position
    ]) {
      expect([text, fastYamlValue(text)]).toEqual([text, undefined]);
    }
  });

  it('reads the example manifests the fast way', () => {
    const weather = readFileSync(path.join(root, 'examples/weather/manifest.yaml'), 'utf8');
    expect(fastYamlValue(weather)).toMatchObject({ server: { name: expect.any(String) } });
  });
});

describe('positions of a manifest read the fast way', () => {
  it('are the yaml parser’s own, worked out when a message needs one', () => {
    const text = 'server:\n  name: s\n  version: 1.0.0\ntools:\n  - name: a\n    description: x\n    inputSchema:\n      type: object\n      properties:\n        n: { type: number }\n';
    const parsed = parseInput(text, 'm.yaml', 'yaml');
    expect(parsed.document?.value).toEqual(fastYamlValue(text));
    expect(parsed.document?.locate('/tools/0/inputSchema/properties/n/type')).toEqual({ line: 10, column: 20 });
    expect(parsed.document?.locate('/tools/0/inputSchema/properties/n/type', 'key')).toEqual({ line: 10, column: 14 });
    expect(parsed.document?.locate('/tools/0/description', 'key')).toEqual({ line: 6, column: 5 });
    expect(parsed.document?.locate('/tools/0/description')).toEqual(parseSource(text, 'm.yaml', 'yaml').document?.locate('/tools/0/description'));
  });

  it('are exact in the errors of a manifest that takes the fast way', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-gen-yaml-fast-'));
    const file = path.join(dir, 'manifest.yaml');
    const text = 'server:\n  name: s\n  version: 1.0.0\ntools:\n  - name: a\n    description: x\n    inputSchema:\n      type: object\n      properties:\n        n: { type: numbr }\n  - name: a\n    description: y\n    inputSchema: { type: object }\n';
    expect(fastYamlValue(text)).toBeDefined();
    writeFileSync(file, text);
    const error = await readManifest(file, { displayPath: 'manifest.yaml' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    const places = (error as InputError).diagnostics.map((d) => `${d.line}:${d.column} ${d.pointer}`);
    expect(places).toContain('10:20 /tools/0/inputSchema/properties/n/type');
    expect(places).toContain('11:11 /tools/1/name');
  });
});
