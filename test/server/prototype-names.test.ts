/**
 * Issue 6, finding 3: a tool or a schema property named `hasOwnProperty` crashed the generator
 * ("internal error", exit 1): json-schema-to-typescript calls `schema.hasOwnProperty(…)` on every
 * object of the schema. Every name of Object.prototype, as tool name, property name, `$defs` name,
 * `required` entry, enum and const value, and as an unknown keyword, now goes the whole way:
 * manifest → model → types → validators → emitted server, which compiles strictly and validates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { emitValidators } from '../../src/emit/validators/index.js';
import { importEmitted, tempDir as validatorsDir } from '../validators/support.js';
import { loadModel, plan, tempDir, typeCheck, write } from './support.js';
import { rmSync, writeFileSync } from 'node:fs';

const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__'])].sort();

/** A JSON manifest (so `__proto__` is a plain key): one tool per name, the name used everywhere. */
function manifest(): string {
  const tools = NAMES.map((name) => {
    const def = { type: 'object', properties: { [name]: { type: 'string', enum: [name, 'other'] } }, required: [name], additionalProperties: false };
    const schema = (withDefs: boolean): Record<string, unknown> => ({
      type: 'object',
      properties: { [name]: { $ref: `#/$defs/${name}` }, fixed: { const: name }, [`${name}List`]: { type: 'array', items: { enum: [name] } } },
      required: [name],
      ...(withDefs ? { $defs: { [name]: def } } : {}),
      // An unknown keyword of that name: ignored by validation, never seen by the type compiler.
      [name]: { description: name },
    });
    return { name, description: `the ${name} tool`, inputSchema: schema(true), outputSchema: schema(true) };
  });
  // JSON.stringify writes a `__proto__` own key as a plain key, which JSON.parse keeps as data.
  return JSON.stringify({ server: { name: 'proto', version: '1.0.0' }, tools }, (key, value: unknown) => value);
}

const dir = tempDir('prototype-names');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Object.prototype names everywhere', () => {
  it('generate a server that compiles strictly, and its validators judge the data, not the prototype', async () => {
    const manifestPath = join(dir, 'manifest.json');
    // Built by hand: an object literal `{ [name]: … }` with name '__proto__' is a computed key, an own property.
    writeFileSync(manifestPath, manifest());
    expect(Object.keys((JSON.parse(readFileSync(manifestPath, 'utf8')) as { tools: object[] }).tools)).toHaveLength(NAMES.length);

    const model = await loadModel(manifestPath);
    expect(model.tools.map((t) => t.name).sort()).toEqual(NAMES);
    const out = join(dir, 'out');
    await write(out, await plan(model), manifestPath);

    const checks = NAMES.map(
      (name, i) =>
        `const input${i}: Tools[${JSON.stringify(name)}]['input'] = JSON.parse('{}') as Tools[${JSON.stringify(name)}]['input'];\n` +
        `export const value${i}: string = input${i}[${JSON.stringify(name)}][${JSON.stringify(name)}];\n`,
    );
    const usage = join(out, 'usage.ts');
    expect(typeCheck([out], { [usage]: `import type { Tools } from './generated/types.js';\n${checks.join('')}` })).toEqual([]);

    const validators = (await import(pathToFileURL(join(out, 'generated', 'validators.ts')).href)) as Record<string, (v: unknown) => boolean>;
    for (const tool of model.tools) {
      const validate = Object.entries(validators).find(([exported]) => exported === `validate${tool.ids.pascal}Input`)?.[1];
      expect(validate, tool.name).toBeTypeOf('function');
      const name = tool.name;
      const good = JSON.parse(JSON.stringify({ [name]: { [name]: name }, fixed: name })) as unknown;
      expect(validate!(good), `${name}: valid input`).toBe(true);
      // `{}` has every name on its prototype; only own properties count.
      expect(validate!({}), `${name}: missing member`).toBe(false);
      expect(validate!(JSON.parse(JSON.stringify({ [name]: { [name]: 'nope' }, fixed: name }))), `${name}: enum`).toBe(false);
    }
  }, 120_000);

  it('through the CLI: exit 0, no internal error', async () => {
    const manifestPath = join(dir, 'cli-manifest.json');
    writeFileSync(manifestPath, manifest());
    const lines: string[] = [];
    const code = await main(['server', manifestPath, '-o', join(dir, 'cli-out')], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(lines.join('\n')).not.toMatch(/internal error/);
    expect(code).toBe(0);
  }, 60_000);
});

describe('a member named __proto__ (which ajv itself skips)', () => {
  it('is validated through properties, additionalProperties, dependentRequired and dependentSchemas', async () => {
    // JSON text: in an object literal a `__proto__` key would set the prototype instead.
    const root = JSON.parse(`{ "$defs": { "P": {
      "type": "object",
      "properties": { "__proto__": { "type": "string" }, "a": { "type": "number" } },
      "additionalProperties": false,
      "dependentRequired": { "__proto__": ["a"] },
      "dependentSchemas": { "__proto__": { "properties": { "a": { "minimum": 10 } } } } } } }`) as object;
    const { js } = emitValidators({ root, dialect: '2020-12', entries: [{ exportName: 'validateP', ref: '#/$defs/P', typeName: 'unknown' }] });
    const out = validatorsDir('proto-member');
    try {
      const validate = (await importEmitted(out, 'proto', js))['validateP']!;
      const parse = (text: string): unknown => JSON.parse(text);
      expect(validate(parse('{"__proto__":"x","a":10}'))).toBe(true);
      expect(validate(parse('{"__proto__":5,"a":10}'))).toBe(false); // property type
      expect(validate(parse('{"__proto__":"x"}'))).toBe(false); // dependentRequired
      expect(validate(parse('{"__proto__":"x","a":1}'))).toBe(false); // dependentSchemas
      expect(validate(parse('{"a":1}'))).toBe(true);
      expect(validate(parse('{"b":1}'))).toBe(false); // additionalProperties still applies
    } finally {
      out.remove();
    }
  });
});

describe('a tool named then, and names with accents (server from a manifest)', () => {
  it('exports the handler under another name, so its module namespace is not thenable; résumé is resume', async () => {
    const manifestPath = join(dir, 'then-manifest.json');
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
    // Tool names are ASCII in a manifest; prompt names may be any text.
    const prompts = ['résumé', 'resume', 'naïve'].map((name) => ({ name, description: name }));
    writeFileSync(manifestPath, JSON.stringify({ server: { name: 'then', version: '1.0.0' }, tools: [tool('then'), tool('catch')], prompts }));
    const model = await loadModel(manifestPath);
    expect(Object.fromEntries(model.tools.map((t) => [t.name, t.ids.camel]))).toEqual({ then: 'then_', catch: 'catch_' });
    expect(Object.fromEntries(model.prompts.map((p) => [p.name, p.ids.camel]))).toEqual({ 'résumé': 'resume_2', resume: 'resume', 'naïve': 'naive' });
    const out = join(dir, 'then-out');
    await write(out, await plan(model), manifestPath);
    expect(typeCheck([out])).toEqual([]);
    // `await import()` of a namespace with a `then` export would call it (and here never settle).
    const handlerModule = (await import(pathToFileURL(join(out, 'handlers', 'tools', 'then_.ts')).href)) as Record<string, unknown>;
    expect(Object.keys(handlerModule)).toEqual(['then_']);
    const index = (await import(pathToFileURL(join(out, 'handlers', 'index.ts')).href)) as { handlers: { tools: Record<string, unknown> } };
    expect(Object.keys(index.handlers.tools).sort()).toEqual(['catch', 'then']);
  }, 60_000);
});
