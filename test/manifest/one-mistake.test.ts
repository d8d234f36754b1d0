/**
 * One mistake, one message: a misspelt key, a value of the wrong type inside a tool schema, a
 * misspelt keyword value. Each is reported once, with its position, pointer and a suggestion, and
 * a warm load (tools kept from the last run, bundled-tools-memo.ts) reports exactly what a cold one does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, InputError, type Diagnostic } from '../../src/load/diagnostics.js';
import { readManifest } from '../../src/load/manifest.js';
import type { Recall } from '../../src/load/bundled-tools-memo.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-one-mistake-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function memoryRecall(): Recall {
  const store = new Map<string, string>();
  return {
    recall: (kind, input) => store.get(`${kind}\0${input}`),
    put: (kind, input, value) => void store.set(`${kind}\0${input}`, value),
  };
}

async function problems(name: string, text: string, recall?: Recall): Promise<string[]> {
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    await readManifest(file, { displayPath: name, ...(recall ? { recall } : {}) });
  } catch (error) {
    if (error instanceof InputError) return error.diagnostics.map((d: Diagnostic) => formatDiagnostic(d));
    throw error;
  }
  return [];
}

const HEAD = 'server:\n  name: demo\n  version: 1.0.0\n';

describe('each common mistake prints exactly one message', () => {
  const cases: [string, string, string][] = [
    [
      'a misspelt required key of a tool',
      `${HEAD}tools:\n  - name: echo\n    inputSchem: { type: object }\n`,
      "m.yaml:6:5: unknown property 'inputSchem' (at /tools/0/inputSchem) — did you mean 'inputSchema'?",
    ],
    [
      "a misspelt key nested in a resource template",
      `${HEAD}resourceTemplates:\n  - uriTemplat: 'files://{path}'\n    name: file\n`,
      "m.yaml:5:5: unknown property 'uriTemplat' (at /resourceTemplates/0/uriTemplat) — did you mean 'uriTemplate'?",
    ],
    [
      "a misspelt key of a prompt argument",
      `${HEAD}prompts:\n  - name: p\n    arguments:\n      - nam: topic\n`,
      "m.yaml:7:9: unknown property 'nam' (at /prompts/0/arguments/0/nam) — did you mean 'name'?",
    ],
    [
      'a tool schema keyword of the wrong type',
      `${HEAD}tools:\n  - name: echo\n    inputSchema: { type: object, required: yes }\n`,
      "m.yaml:6:44: expected a list, got a string ('yes') (at /tools/0/inputSchema/required)",
    ],
    [
      'an outputSchema keyword of the wrong type',
      `${HEAD}tools:\n  - name: echo\n    inputSchema: { type: object }\n    outputSchema: { type: object, properties: 5 }\n`,
      'm.yaml:7:47: expected a mapping, got a number (5) (at /tools/0/outputSchema/properties)',
    ],
    [
      'a property schema of the wrong type',
      `${HEAD}tools:\n  - name: echo\n    inputSchema: { type: object, properties: { a: 5 } }\n`,
      'm.yaml:6:51: expected a schema (mapping or boolean), got a number (5) (at /tools/0/inputSchema/properties/a)',
    ],
    [
      'a misspelt JSON Schema type',
      `${HEAD}tools:\n  - name: echo\n    inputSchema: { type: object, properties: { a: { type: strin } } }\n`,
      "m.yaml:6:59: inputSchema is not a valid JSON Schema: 'type' cannot be 'strin' (at /tools/0/inputSchema/properties/a/type) — did you mean 'string'?",
    ],
    [
      'a misspelt JSON Schema type in a list of types',
      `${HEAD}tools:\n  - name: echo\n    inputSchema: { type: object, properties: { a: { type: [strin, 'null'] } } }\n`,
      "m.yaml:6:60: inputSchema is not a valid JSON Schema: 'type' cannot be 'strin' (at /tools/0/inputSchema/properties/a/type/0) — did you mean 'string'?",
    ],
    [
      'a wrong enum value in the manifest',
      `${HEAD}tools:\n  - name: echo\n    inputSchema: { type: object }\n    execution: { taskSupport: sometimes }\n`,
      "m.yaml:7:31: 'sometimes' is not allowed here (at /tools/0/execution/taskSupport) — use one of 'forbidden', 'optional', 'required'",
    ],
  ];
  for (const [what, text, message] of cases) {
    it(what, async () => {
      expect(await problems('m.yaml', text)).toEqual([message]);
    });
  }
});

describe('a warm load reports what a cold load reports', () => {
  const good = { name: 'good', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };
  const manifest = (tools: object[]): string => JSON.stringify({ server: { name: 'demo', version: '1.0.0' }, tools });

  it('for a misspelt key, a wrong type in a tool schema and a misspelt type, beside a kept tool', async () => {
    const recall = memoryRecall();
    // The first run keeps `good`; the second finds it kept and must report the same as a cold load.
    expect(await problems('w.json', manifest([good]), recall)).toEqual([]);
    const broken = manifest([
      good,
      { name: 'typo', inputSchem: { type: 'object' } },
      { name: 'wrong', inputSchema: { type: 'object', required: 'q' } },
      { name: 'spelt', inputSchema: { type: 'object', properties: { a: { type: 'strin' } } } },
    ]);
    const cold = await problems('w.json', broken);
    expect(cold).toHaveLength(3);
    expect(await problems('w.json', broken, recall)).toEqual(cold);
    // And again, now that the broken run has had the chance to keep something.
    expect(await problems('w.json', broken, recall)).toEqual(cold);
  });
});
