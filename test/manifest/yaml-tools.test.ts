/**
 * A YAML manifest read tool by tool (yaml-tools.ts) gives the value the whole text gives, whether
 * an entry is read or taken from the last run, or declines; it never gives another value.
 */
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { makeManifest } from '../../bench/scale/make-manifest.mjs';
import { memoryRecall } from '../support/memory-recall.js';
import { fastYamlValue } from '../../src/load/yaml-fast.js';
import { toolwiseYamlValue } from '../../src/load/yaml-tools.js';
import { parseSource } from '../../src/load/yaml-positions.js';

/** -0 and +0 told apart, key order kept. */
function exact(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? `number:${Object.is(v, -0) ? '-0' : String(v)}` : v));
}

/** 'declined', or 'same' when both a first and a second (cached) read give what the whole text gives. */
function verdict(text: string): string {
  const recall = memoryRecall();
  const first = toolwiseYamlValue(text, recall);
  if (first === undefined) return 'declined';
  const whole = fastYamlValue(text) ?? parseSource(text, 'x.yaml', 'yaml').document?.value;
  const second = toolwiseYamlValue(text, recall);
  if (exact(first) !== exact(whole)) return `differs: ${exact(first)} vs ${exact(whole)}`;
  if (exact(second) !== exact(whole)) return `differs when cached: ${exact(second)} vs ${exact(whole)}`;
  return 'same';
}

const HEAD = 'server: { name: s, version: 1.0.0 }\n';

describe('a YAML manifest read tool by tool', () => {
  it.each([
    ['plain entries', `${HEAD}tools:\n  - name: a\n    description: x\n  - name: b\n`, 'same'],
    ['entries at the root indentation', `${HEAD}tools:\n- name: a\n- name: b\n  description: y\nz: 1\n`, 'same'],
    ['comments and blank lines between', `${HEAD}tools: # the tools\n\n  # first\n  - name: a\n\n# aside\n  - name: b\n    # inner\n    description: c\n`, 'same'],
    ['more after the tools', `${HEAD}tools:\n  - name: a\n$defs:\n  x: { type: string }\n`, 'same'],
    ['block scalars, kept and folded', `${HEAD}tools:\n  - name: a\n    description: |+\n      one\n      - two\n\n\n  - name: b\n    description: >-\n      folded\n      text\n`, 'same'],
    ['a block scalar as the entry', `${HEAD}tools:\n  - |\n    text\n  - name: b\n`, 'same'],
    ['nested sequences', `${HEAD}tools:\n  - name: a\n    tags:\n    - x\n    -   - y\n  - - z\n`, 'same'],
    ['plain scalars over lines', `${HEAD}tools:\n  - name: a\n    description: one\n      two\n  - name: b\n`, 'same'],
    ['a quote over an entry line', `${HEAD}tools:\n  - name: a\n    description: "one\n  - two"\n  - name: b\n`, 'declined'],
    ['a flow collection over an entry line', `${HEAD}tools:\n  - [a,\n  - b]\n`, 'declined'],
    ['a quote open before the tools line', `title: "x\ntools:\n  - name: a\n  "\n`, 'declined'],
    ['tools twice', `${HEAD}tools:\n  - name: a\ntools:\n  - name: b\n`, 'declined'],
    ['a repeated key in an entry', `${HEAD}tools:\n  - name: a\n    name: b\n`, 'declined'],
    ['an anchor', `${HEAD}tools:\n  - &t name: a\n  - name: b\n`, 'declined'],
    ['a tag', `${HEAD}tools:\n  - name: !!str a\n`, 'declined'],
    ['less indented than the dash', `${HEAD}tools:\n    - name: a\n  - name: b\n`, 'declined'],
    ['tabs', `${HEAD}tools:\n  - name: a\n    description: "a\tb"\n`, 'declined'],
    ['carriage returns', `${HEAD}tools:\r\n  - name: a\r\n`, 'declined'],
    ['a flow sequence', `${HEAD}tools: [{ name: a }]\n`, 'declined'],
    ['a document end', `${HEAD}tools:\n  - name: a\n...\n`, 'same'],
    ['a second document', `${HEAD}tools:\n  - name: a\n---\nb: 1\n`, 'declined'],
    ['numbers JSON cannot carry', `${HEAD}tools:\n  - name: a\n    inputSchema: { type: object, properties: { n: { default: .inf, minimum: -0 } } }\n`, 'same'],
    ['a text of a dash alone', `${HEAD}tools:\n  -\n  - name: b\n`, 'same'],
  ])('%s', (_what, text, expected) => {
    expect(verdict(text)).toBe(expected);
  });

  it('never differs over awkward scalars, as a value and as a whole entry', () => {
    const scalars = ['-0', '.inf', '.nan', '0x1F', '0o17', '1_000', '2001-12-14', '~', 'null', '-', '- x', '"- x"', "'it''s'", '"multi\\\n  line"', '__proto__', 'a # c', '[]', '{}', '{a: [1, 2]}', '|\n      block', '>\n      folded\n\n      para'];
    for (const scalar of scalars) {
      for (const text of [`${HEAD}tools:\n  - name: a\n    v: ${scalar}\n  - name: b\n`, `${HEAD}tools:\n  - ${scalar}\n  - name: b\n`]) {
        expect(verdict(text), text).not.toMatch(/^differs/);
      }
    }
  });

  it('keeps no entry whose value JSON text would not give back, and reads it again', () => {
    const recall = memoryRecall();
    const text = `${HEAD}tools:\n  - name: a\n  - name: b\n    inputSchema: { type: object, properties: { n: { default: .nan } } }\n`;
    toolwiseYamlValue(text, recall);
    expect(recall.store.size).toBe(1);
    const again = toolwiseYamlValue(text, recall) as { tools: { inputSchema?: { properties: { n: { default: number } } } }[] };
    expect(recall.reused).toBe(1);
    expect(Number.isNaN(again.tools[1]?.inputSchema?.properties.n.default)).toBe(true);
  });

  it('reads a generated manifest as the whole text does, before and after one tool changed, the unchanged ones from the cache', () => {
    const yaml = (changed: Record<number, number>) => dump(makeManifest({ tools: 40, changed }), { lineWidth: -1, noRefs: true });
    const recall = memoryRecall();
    const before = yaml({});
    expect(exact(toolwiseYamlValue(before, recall))).toBe(exact(fastYamlValue(before)));
    const after = yaml({ 17: 1 });
    recall.reused = 0;
    expect(exact(toolwiseYamlValue(after, recall))).toBe(exact(fastYamlValue(after)));
    expect(recall.reused).toBe(39);
  });
});
