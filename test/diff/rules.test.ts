/**
 * The rule table: pairs of small manifests (or snapshots, for what manifests cannot say), each
 * diffed through the CLI, with every finding's classification and JSON pointer asserted. Each rule
 * comes with its mirror case.
 */
import { describe, expect, it } from 'vitest';
import type { Severity } from '../../src/diff/finding.js';
import { diffJson, manifest, snapshot, tempDir, writeJson } from './helpers.js';

type Json = { [key: string]: unknown };

interface RuleCase {
  name: string;
  old: Json;
  new: Json;
  /** Every finding, as [severity, pointer]; order does not matter. */
  expect: [Severity, string][];
  /** A finding's message must match this. */
  message?: RegExp;
}

const P = '/tools/t/inputSchema';
const O = '/tools/t/outputSchema';

const obj = (properties: Json, required: string[] = [], extra: Json = {}): Json => ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...extra });
const tool = (inputSchema: Json, outputSchema?: Json, extra: Json = {}): Json => ({ name: 't', inputSchema, ...(outputSchema ? { outputSchema } : {}), ...extra });
/** Manifests with one tool `t`. */
const tools = (oldTool: Json, newTool: Json): Pick<RuleCase, 'old' | 'new'> => ({ old: manifest({ tools: [oldTool] }), new: manifest({ tools: [newTool] }) });
/** One input property `a`, old and new. */
const input = (before: Json, after: Json): Pick<RuleCase, 'old' | 'new'> => tools(tool(obj({ a: before })), tool(obj({ a: after })));
/** One output field `s` (required), old and new. */
const output = (before: Json, after: Json): Pick<RuleCase, 'old' | 'new'> => tools(tool(obj({}), obj({ s: before }, ['s'])), tool(obj({}), obj({ s: after }, ['s'])));
/** Snapshots with one tool `t`, its execution.taskSupport as given (undefined: absent). */
const tasks = (before: string | undefined, after: string | undefined): Pick<RuleCase, 'old' | 'new'> => {
  const withSupport = (level: string | undefined): Json => tool(obj({}), undefined, level === undefined ? {} : { execution: { taskSupport: level } });
  return { old: snapshot({ tools: [withSupport(before)] }), new: snapshot({ tools: [withSupport(after)] }) };
};
const prompt = (args: Json[]): Json => manifest({ prompts: [{ name: 'p', arguments: args }] });
const str = { type: 'string' };

const CASES: RuleCase[] = [
  // Items.
  { name: 'tool removed', old: manifest({ tools: [tool(obj({})), { ...tool(obj({ x: str })), name: 'u' }] }), new: manifest({ tools: [{ ...tool(obj({ x: str })), name: 'u' }] }), expect: [['breaking', '/tools/t']] },
  { name: 'tool added', old: manifest({ tools: [tool(obj({}))] }), new: manifest({ tools: [tool(obj({})), { ...tool(obj({ x: str })), name: 'u' }] }), expect: [['compatible', '/tools/u']] },
  {
    name: 'tool renamed: a removal plus an addition, said to be a likely rename',
    old: manifest({ tools: [tool(obj({ a: str }))] }),
    new: manifest({ tools: [{ ...tool(obj({ a: str })), name: 't2' }] }),
    expect: [['breaking', '/tools/t'], ['compatible', '/tools/t2']],
    message: /tool "t" removed \(likely renamed to "t2": same schemas\)/,
  },
  { name: 'prompt removed', old: manifest({ prompts: [{ name: 'p' }, { name: 'q' }] }), new: manifest({ prompts: [{ name: 'q', description: 'other' }] }), expect: [['breaking', '/prompts/p'], ['docs', '/prompts/q/description']] },
  { name: 'prompt added', old: manifest({ prompts: [] }), new: manifest({ prompts: [{ name: 'p' }] }), expect: [['compatible', '/prompts/p']] },
  { name: 'resource removed', old: manifest({ resources: [{ uri: 'file:///a.txt', name: 'a' }] }), new: manifest({}), expect: [['breaking', '/resources/file:~1~1~1a.txt']] },
  { name: 'resource added', old: manifest({}), new: manifest({ resources: [{ uri: 'file:///a.txt', name: 'a' }] }), expect: [['compatible', '/resources/file:~1~1~1a.txt']] },
  {
    name: 'resource MIME type changed',
    old: manifest({ resources: [{ uri: 'file:///a', name: 'a', mimeType: 'text/plain' }] }),
    new: manifest({ resources: [{ uri: 'file:///a', name: 'a', mimeType: 'application/json' }] }),
    expect: [['breaking', '/resources/file:~1~1~1a/mimeType']],
  },
  {
    name: "resource template's uriTemplate changed",
    old: manifest({ resourceTemplates: [{ uriTemplate: 'x://s/{id}', name: 's' }] }),
    new: manifest({ resourceTemplates: [{ uriTemplate: 'x://station/{id}', name: 's' }] }),
    expect: [['breaking', '/resourceTemplates/s/uriTemplate']],
  },
  {
    name: "resource template's description changed",
    old: manifest({ resourceTemplates: [{ uriTemplate: 'x://s/{id}', name: 's', description: 'one' }] }),
    new: manifest({ resourceTemplates: [{ uriTemplate: 'x://s/{id}', name: 's', description: 'two' }] }),
    expect: [['docs', '/resourceTemplates/s/description']],
  },

  // Input properties.
  { name: 'new required input property', ...tools(tool(obj({ a: str })), tool(obj({ a: str, b: str }, ['b']))), expect: [['breaking', `${P}/properties/b`]] },
  { name: 'new optional input property', ...tools(tool(obj({ a: str })), tool(obj({ a: str, b: str }))), expect: [['compatible', `${P}/properties/b`]] },
  { name: 'input property made required', ...tools(tool(obj({ a: str })), tool(obj({ a: str }, ['a']))), expect: [['breaking', `${P}/properties/a`]] },
  { name: 'input property made optional', ...tools(tool(obj({ a: str }, ['a'])), tool(obj({ a: str }))), expect: [['compatible', `${P}/properties/a`]] },
  { name: 'input property removed from a closed object', ...tools(tool(obj({ a: str, b: str }, [], { additionalProperties: false })), tool(obj({ a: str }, [], { additionalProperties: false }))), expect: [['breaking', `${P}/properties/b`]] },
  { name: 'input property removed from an open object', ...tools(tool(obj({ a: str, b: str })), tool(obj({ a: str }))), expect: [['compatible', `${P}/properties/b`]] },

  // Input narrowed (breaking) and widened (compatible).
  { name: 'input type narrowed', ...input({ type: ['string', 'number'] }, { type: 'string' }), expect: [['breaking', `${P}/properties/a/type`]] },
  { name: 'input type widened', ...input({ type: 'string' }, { type: ['string', 'number'] }), expect: [['compatible', `${P}/properties/a/type`]] },
  { name: 'input type number → integer', ...input({ type: 'number' }, { type: 'integer' }), expect: [['breaking', `${P}/properties/a/type`]] },
  { name: 'input enum value removed', ...input({ enum: ['c', 'f'] }, { enum: ['c'] }), expect: [['breaking', `${P}/properties/a/enum`]] },
  { name: 'input enum value added', ...input({ enum: ['c'] }, { enum: ['c', 'f'] }), expect: [['compatible', `${P}/properties/a/enum`]] },
  { name: 'input minimum raised', ...input({ type: 'number', minimum: 0 }, { type: 'number', minimum: 1 }), expect: [['breaking', `${P}/properties/a/minimum`]] },
  { name: 'input minimum lowered', ...input({ type: 'number', minimum: 1 }, { type: 'number', minimum: 0 }), expect: [['compatible', `${P}/properties/a/minimum`]] },
  { name: 'input exclusiveMinimum raised', ...input({ type: 'number', exclusiveMinimum: 0 }, { type: 'number', exclusiveMinimum: 5 }), expect: [['breaking', `${P}/properties/a/exclusiveMinimum`]] },
  { name: 'input exclusiveMinimum lowered', ...input({ type: 'number', exclusiveMinimum: 5 }, { type: 'number', exclusiveMinimum: 0 }), expect: [['compatible', `${P}/properties/a/exclusiveMinimum`]] },
  { name: 'input maximum lowered', ...input({ type: 'integer', maximum: 7 }, { type: 'integer', maximum: 5 }), expect: [['breaking', `${P}/properties/a/maximum`]] },
  { name: 'input maximum raised', ...input({ type: 'integer', maximum: 5 }, { type: 'integer', maximum: 7 }), expect: [['compatible', `${P}/properties/a/maximum`]] },
  { name: 'input maximum added', ...input({ type: 'integer' }, { type: 'integer', maximum: 7 }), expect: [['breaking', `${P}/properties/a/maximum`]] },
  { name: 'input maximum removed', ...input({ type: 'integer', maximum: 7 }, { type: 'integer' }), expect: [['compatible', `${P}/properties/a/maximum`]] },
  { name: 'input maxLength lowered', ...input({ type: 'string', maxLength: 10 }, { type: 'string', maxLength: 5 }), expect: [['breaking', `${P}/properties/a/maxLength`]] },
  { name: 'input maxLength raised', ...input({ type: 'string', maxLength: 5 }, { type: 'string', maxLength: 10 }), expect: [['compatible', `${P}/properties/a/maxLength`]] },
  { name: 'input minLength raised', ...input({ type: 'string', minLength: 1 }, { type: 'string', minLength: 3 }), expect: [['breaking', `${P}/properties/a/minLength`]] },
  { name: 'input minLength lowered', ...input({ type: 'string', minLength: 3 }, { type: 'string', minLength: 1 }), expect: [['compatible', `${P}/properties/a/minLength`]] },
  { name: 'input maxItems lowered', ...input({ type: 'array', maxItems: 4 }, { type: 'array', maxItems: 2 }), expect: [['breaking', `${P}/properties/a/maxItems`]] },
  { name: 'input maxItems raised', ...input({ type: 'array', maxItems: 2 }, { type: 'array', maxItems: 4 }), expect: [['compatible', `${P}/properties/a/maxItems`]] },
  { name: 'input minItems raised', ...input({ type: 'array', minItems: 0 }, { type: 'array', minItems: 1 }), expect: [['breaking', `${P}/properties/a/minItems`]] },
  { name: 'input minItems lowered', ...input({ type: 'array', minItems: 1 }, { type: 'array', minItems: 0 }), expect: [['compatible', `${P}/properties/a/minItems`]] },
  { name: 'input additionalProperties closed (absent → false)', ...tools(tool(obj({ a: str })), tool(obj({ a: str }, [], { additionalProperties: false }))), expect: [['breaking', `${P}/additionalProperties`]] },
  { name: 'input additionalProperties closed (true → false)', ...tools(tool(obj({ a: str }, [], { additionalProperties: true })), tool(obj({ a: str }, [], { additionalProperties: false }))), expect: [['breaking', `${P}/additionalProperties`]] },
  { name: 'input additionalProperties opened (false → absent)', ...tools(tool(obj({ a: str }, [], { additionalProperties: false })), tool(obj({ a: str }))), expect: [['compatible', `${P}/additionalProperties`]] },
  { name: 'input pattern added', ...input({ type: 'string' }, { type: 'string', pattern: '^[a-z]+$' }), expect: [['breaking', `${P}/properties/a/pattern`]] },
  { name: 'input pattern changed', ...input({ type: 'string', pattern: '^[a-z]+$' }, { type: 'string', pattern: '^[a-z0-9]+$' }), expect: [['breaking', `${P}/properties/a/pattern`]] },
  { name: 'input pattern removed', ...input({ type: 'string', pattern: '^[a-z]+$' }, { type: 'string' }), expect: [['compatible', `${P}/properties/a/pattern`]] },
  { name: 'input format added', ...input({ type: 'string' }, { type: 'string', format: 'email' }), expect: [['breaking', `${P}/properties/a/format`]] },
  { name: 'input format removed', ...input({ type: 'string', format: 'email' }, { type: 'string' }), expect: [['compatible', `${P}/properties/a/format`]] },
  { name: 'input uniqueItems required', ...input({ type: 'array' }, { type: 'array', uniqueItems: true }), expect: [['breaking', `${P}/properties/a/uniqueItems`]] },
  { name: 'input anyOf branch added', ...input({ anyOf: [str] }, { anyOf: [str, { type: 'integer' }] }), expect: [['compatible', `${P}/properties/a/anyOf/1`]] },
  { name: 'input anyOf branch removed', ...input({ anyOf: [str, { type: 'integer' }] }, { anyOf: [{ type: 'integer' }] }), expect: [['breaking', `${P}/properties/a/anyOf/0`]] },
  { name: 'input anyOf reordered: no change', ...input({ anyOf: [str, { type: 'integer' }] }, { anyOf: [{ type: 'integer' }, str] }), expect: [] },
  { name: 'input "not" excludes one more value (narrowed through not)', ...input({ type: 'string', not: { enum: ['a'] } }, { type: 'string', not: { enum: ['a', 'b'] } }), expect: [['breaking', `${P}/properties/a/not/enum`]] },
  { name: 'input "not" excludes one value fewer', ...input({ type: 'string', not: { enum: ['a', 'b'] } }, { type: 'string', not: { enum: ['a'] } }), expect: [['compatible', `${P}/properties/a/not/enum`]] },

  // x-mcp-header on input properties.
  { name: 'x-mcp-header added', ...tools(tool(obj({ region: str })), tool(obj({ region: { ...str, 'x-mcp-header': 'Region' } }))), expect: [['breaking', `${P}/properties/region/x-mcp-header`]] },
  { name: 'x-mcp-header removed', ...tools(tool(obj({ region: { ...str, 'x-mcp-header': 'Region' } })), tool(obj({ region: str }))), expect: [['breaking', `${P}/properties/region/x-mcp-header`]] },
  { name: 'x-mcp-header renamed', ...tools(tool(obj({ region: { ...str, 'x-mcp-header': 'Region' } })), tool(obj({ region: { ...str, 'x-mcp-header': 'Zone' } }))), expect: [['breaking', `${P}/properties/region/x-mcp-header`]] },
  { name: 'x-mcp-header unchanged, description changed', ...tools(tool(obj({ region: { ...str, 'x-mcp-header': 'Region' } })), tool(obj({ region: { ...str, 'x-mcp-header': 'Region', description: 'where' } }))), expect: [['docs', `${P}/properties/region/description`]] },

  // Output: widening breaks clients, narrowing does not.
  { name: 'output field removed', ...tools(tool(obj({}), obj({ s: str, h: str }, ['s', 'h'])), tool(obj({}), obj({ s: str }, ['s']))), expect: [['breaking', `${O}/properties/h`]] },
  { name: 'output field made optional', ...tools(tool(obj({}), obj({ s: str }, ['s'])), tool(obj({}), obj({ s: str }))), expect: [['breaking', `${O}/properties/s`]] },
  { name: 'output field made required', ...tools(tool(obj({}), obj({ s: str })), tool(obj({}), obj({ s: str }, ['s']))), expect: [['compatible', `${O}/properties/s`]] },
  { name: 'output field added', ...tools(tool(obj({}), obj({ s: str }, ['s'])), tool(obj({}), obj({ s: str, n: { type: 'number' } }, ['s', 'n']))), expect: [['compatible', `${O}/properties/n`]] },
  {
    name: 'output field added where the old schema was closed (clients validating with it refuse the field)',
    ...tools(tool(obj({}), obj({ s: str }, ['s'], { additionalProperties: false })), tool(obj({}), obj({ s: str, n: { type: 'number' } }, ['s', 'n'], { additionalProperties: false }))),
    expect: [['breaking', `${O}/properties/n`]],
  },
  { name: 'output type widened (string → [string, null])', ...output(str, { type: ['string', 'null'] }), expect: [['breaking', `${O}/properties/s/type`]] },
  { name: 'output type narrowed ([string, null] → string)', ...output({ type: ['string', 'null'] }, str), expect: [['compatible', `${O}/properties/s/type`]] },
  { name: 'output enum value added', ...output({ enum: ['sunny'] }, { enum: ['sunny', 'fog'] }), expect: [['breaking', `${O}/properties/s/enum`]] },
  { name: 'output enum value removed', ...output({ enum: ['sunny', 'fog'] }, { enum: ['sunny'] }), expect: [['compatible', `${O}/properties/s/enum`]] },
  { name: 'output maximum raised', ...output({ type: 'integer', maximum: 100 }, { type: 'integer', maximum: 1000 }), expect: [['breaking', `${O}/properties/s/maximum`]] },
  { name: 'output additionalProperties closed', ...tools(tool(obj({}), obj({ s: str })), tool(obj({}), obj({ s: str }, [], { additionalProperties: false }))), expect: [['compatible', `${O}/additionalProperties`]] },
  { name: 'outputSchema added', ...tools(tool(obj({})), tool(obj({}), obj({ s: str }))), expect: [['compatible', O]] },
  { name: 'outputSchema removed', ...tools(tool(obj({}), obj({ s: str })), tool(obj({}))), expect: [['breaking', O]] },

  // execution.taskSupport (snapshots: manifests do not declare it).
  { name: 'taskSupport forbidden (absent) → required', ...tasks(undefined, 'required'), expect: [['breaking', '/tools/t/execution/taskSupport']] },
  { name: 'taskSupport optional → required', ...tasks('optional', 'required'), expect: [['breaking', '/tools/t/execution/taskSupport']] },
  { name: 'taskSupport forbidden → optional', ...tasks('forbidden', 'optional'), expect: [['compatible', '/tools/t/execution/taskSupport']] },
  { name: 'taskSupport required → optional', ...tasks('required', 'optional'), expect: [['compatible', '/tools/t/execution/taskSupport']] },
  { name: 'taskSupport required → forbidden', ...tasks('required', 'forbidden'), expect: [['breaking', '/tools/t/execution/taskSupport']] },
  { name: 'taskSupport absent → forbidden: the same thing', ...tasks(undefined, 'forbidden'), expect: [] },

  // Prompt arguments.
  { name: 'prompt argument made required', old: prompt([{ name: 'a' }]), new: prompt([{ name: 'a', required: true }]), expect: [['breaking', '/prompts/p/arguments/a/required']] },
  { name: 'prompt argument made optional', old: prompt([{ name: 'a', required: true }]), new: prompt([{ name: 'a' }]), expect: [['compatible', '/prompts/p/arguments/a/required']] },
  { name: 'prompt argument added, optional', old: prompt([{ name: 'a' }]), new: prompt([{ name: 'a' }, { name: 'b' }]), expect: [['compatible', '/prompts/p/arguments/b']] },
  { name: 'prompt argument added, required', old: prompt([{ name: 'a' }]), new: prompt([{ name: 'a' }, { name: 'b', required: true }]), expect: [['breaking', '/prompts/p/arguments/b']] },
  { name: 'prompt argument removed', old: prompt([{ name: 'a' }, { name: 'b' }]), new: prompt([{ name: 'a' }]), expect: [['breaking', '/prompts/p/arguments/b']] },

  // Documentation alone.
  {
    name: 'description, title and examples alone are docs',
    ...tools(
      tool(obj({ a: { type: 'string', description: 'one', examples: ['x'] } }), undefined, { title: 'T', description: 'old' }),
      tool(obj({ a: { type: 'string', description: 'two', examples: ['y'] } }), undefined, { title: 'T2', description: 'new' }),
    ),
    expect: [['docs', '/tools/t/description'], ['docs', '/tools/t/title'], ['docs', `${P}/properties/a/description`], ['docs', `${P}/properties/a/examples`]],
  },

  // $refs are followed: the pointer follows the property, not the definition.
  {
    name: 'enum value removed behind a $ref to the shared $defs',
    old: manifest({ $defs: { units: { enum: ['celsius', 'fahrenheit'] } }, tools: [tool(obj({ units: { $ref: '#/$defs/units' } }), obj({ units: { $ref: '#/$defs/units' } }))] }),
    new: manifest({ $defs: { units: { enum: ['celsius'] } }, tools: [tool(obj({ units: { $ref: '#/$defs/units' } }), obj({ units: { $ref: '#/$defs/units' } }))] }),
    expect: [['breaking', `${P}/properties/units/enum`], ['compatible', `${O}/properties/units/enum`]],
  },
  {
    name: 'draft-07 snapshot: a `definitions` ref is followed',
    old: snapshot({ tools: [tool({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { u: { $ref: '#/definitions/u' } }, definitions: { u: { enum: ['a', 'b'] } } })] }),
    new: snapshot({ tools: [tool({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { u: { $ref: '#/definitions/u' } }, definitions: { u: { enum: ['a'] } } })] }),
    expect: [['breaking', `${P}/properties/u/enum`]],
  },
];

describe('mcp-gen diff: the rule table', () => {
  it('has at least 25 pairs', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(25);
  });

  const dir = tempDir();
  it.each(CASES.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    const ext = c.old['mcpGenSnapshot'] !== undefined ? 'snapshot.json' : 'json';
    const oldPath = writeJson(dir, `old-${i}.${ext}`, c.old);
    const newPath = writeJson(dir, `new-${i}.${ext}`, c.new);
    const report = await diffJson(oldPath, newPath);
    const got = report.findings.map((f) => [f.severity, f.pointer]);
    const order = (a: unknown[], b: unknown[]): number => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect(got.sort(order)).toEqual([...c.expect].sort(order));
    if (c.message) expect(report.findings.map((f) => f.message)).toContainEqual(expect.stringMatching(c.message));
  });
});
