/**
 * A client generated from an untrusted live server obeys the spec's MUSTs and warns instead of
 * failing silently or crashing: every tool it cannot use as the server describes it is left out
 * with a warning naming the tool and the reason, in the CLI's diagnostic format, and generation
 * still succeeds (exit 0) with the rest. Offline through `--from-snapshot`, and live through
 * `--from-command` against the official SDK and against a server that writes its JSON by hand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { terminalText } from '../../src/printer/escape.js';
import { describeDiagnostics, writeTempProject } from '../types/helpers.js';
import { checkWith, cli, generate, importClient, repoRoot } from './support.js';

const object = (properties: Record<string, unknown> = {}, more: Record<string, unknown> = {}) => ({ type: 'object', properties, ...more });
const string = (header: string) => ({ type: 'string', 'x-mcp-header': header });

function snapshotOf(tools: unknown[], more: Record<string, unknown> = {}) {
  return { mcpGenSnapshot: 1, protocolVersion: '2025-11-25', serverInfo: { name: 'untrusted', version: '1' }, capabilities: { tools: {} }, tools, prompts: [], resources: [], resourceTemplates: [], ...more };
}

/** Generates from snapshot text; the text is written as given, so it may hold what JSON.stringify cannot. */
async function fromSnapshotText(text: string, extra: string[] = []) {
  const project = writeTempProject({ 'snapshot.json': text });
  const { dir, run } = await generate(['--from-snapshot', join(project, 'snapshot.json'), ...extra]);
  return { dir, run, project };
}

/** The warning line about one tool (every warning is one line, starting with `warning: <file>:`). */
function warningAbout(err: string, tool: string): string {
  // As the CLI prints it: control and invisible characters escaped.
  const line = err.split('\n').find((l) => l.includes(`tool ${terminalText(JSON.stringify(tool))} left out`));
  expect(line, `no warning about ${tool} in:\n${err}`).toBeDefined();
  expect(line).toMatch(/^warning: [^:]*snapshot\.json(:\d+:\d+)?: tool /);
  return line as string;
}

const DEPTH = 10_000;
/** `{"type":"object","properties":{"a":…}}` nested DEPTH times: built as text, since JSON.stringify overflows on it. */
const deepSchemaText = '{"type":"object","properties":{"a":'.repeat(DEPTH) + '{"type":"string"}' + '}}'.repeat(DEPTH);
const deepArrayText = '['.repeat(DEPTH) + '1' + ']'.repeat(DEPTH);

describe('x-mcp-header: a tool whose annotation breaks a MUST is left out (2026-07-28 tools, x-mcp-header)', () => {
  it('not statically reachable, duplicated ignoring case, or not a token: each named with its reason', async () => {
    const tools = [
      { name: 'under_items', inputSchema: object({ list: { type: 'array', items: string('Item') } }) },
      { name: 'under_any_of', inputSchema: object({}, { anyOf: [object({ a: string('A') })] }) },
      { name: 'under_one_of', inputSchema: object({ a: { oneOf: [string('A')] } }) },
      { name: 'under_all_of', inputSchema: object({}, { allOf: [object({ a: string('A') })] }) },
      { name: 'through_ref', inputSchema: object({ a: { $ref: '#/$defs/A' } }, { $defs: { A: string('A') } }) },
      { name: 'under_additional', inputSchema: object({}, { additionalProperties: string('Extra') }) },
      { name: 'under_pattern', inputSchema: object({}, { patternProperties: { '^x-': string('X') } }) },
      { name: 'twice', inputSchema: object({ a: string('Region'), b: string('REGION') }) },
      { name: 'not_a_token', inputSchema: object({ a: string('Region(eu)') }) },
      { name: 'slash', inputSchema: object({ a: string('a/b') }) },
      { name: 'nested_ok', inputSchema: object({ where: object({ region: string('Region') }) }) },
    ];
    const { dir, run } = await fromSnapshotText(JSON.stringify(snapshotOf(tools)));
    expect(run.code, run.err).toBe(0);
    for (const name of ['under_items', 'under_any_of', 'under_one_of', 'under_all_of', 'through_ref', 'under_additional', 'under_pattern']) {
      expect(warningAbout(run.err, name)).toContain('is not statically reachable');
    }
    expect(warningAbout(run.err, 'through_ref')).toContain('/$defs/A');
    expect(warningAbout(run.err, 'twice')).toContain('duplicate');
    expect(warningAbout(run.err, 'not_a_token')).toContain('not an HTTP header token');
    expect(warningAbout(run.err, 'slash')).toContain('not an HTTP header token');
    expect(run.err).not.toContain('"nested_ok" left out');
    const client = readFileSync(join(dir, 'client', 'client.ts'), 'utf8');
    expect(client).toContain('readonly nestedOk:');
    expect(client).not.toContain('underItems');
    expect(client).toContain(`headers: JSON.parse('[{"path":["where","region"],"header":"Region"}]')`);
  }, 60_000);
});

describe('depth: nothing the server sends can overflow the stack', () => {
  it('a 10,000-level deep schema is a warning naming the tool and its depth, not an internal error', async () => {
    const text = JSON.stringify(snapshotOf([{ name: 'deep', inputSchema: 'DEEP' }, { name: 'fine', inputSchema: object() }])).replace('"DEEP"', deepSchemaText);
    const { dir, run } = await fromSnapshotText(text);
    expect(run.err).not.toContain('internal error');
    expect(run.code, run.err).toBe(0);
    expect(warningAbout(run.err, 'deep')).toMatch(/nested 20002 levels deep; mcp-gen reads at most 256 \(at \/tools\/0\)/);
    expect(readFileSync(join(dir, 'client', 'client.ts'), 'utf8')).toContain('readonly fine:');
  }, 60_000);

  it('deep JSON anywhere else (annotations, _meta, serverInfo, prompts, instructions) is bounded too, and --save-snapshot writes it', async () => {
    const text = JSON.stringify(
      snapshotOf([{ name: 'deep_meta', inputSchema: object(), _meta: { x: 'DEEP' } }, { name: 'fine', inputSchema: object() }], {
        serverInfo: { name: 'DEEP', version: '1' },
        capabilities: { tools: {}, prompts: {}, experimental: 'DEEP' },
        instructions: 'DEEP',
        prompts: [{ name: 'deep_prompt', arguments: [{ name: 'a', description: 'DEEP' }] }, { name: 'fine_prompt' }],
      }),
    ).replaceAll('"DEEP"', deepArrayText);
    const project = writeTempProject({ 'snapshot.json': text });
    const saved = join(project, 'saved.json');
    const { dir, run } = await generate(['--from-snapshot', join(project, 'snapshot.json'), '--save-snapshot', saved]);
    expect(run.err).not.toContain('internal error');
    expect(run.code, run.err).toBe(0);
    expect(warningAbout(run.err, 'deep_meta')).toContain('nested 10002 levels deep');
    expect(run.err).toContain('prompt "deep_prompt" left out: it is nested 10003 levels deep');
    const client = readFileSync(join(dir, 'client', 'client.ts'), 'utf8');
    expect(client).toContain('readonly fine:');
    expect(client).toContain('readonly finePrompt:');
    // The saved snapshot holds the deep values as they came; JSON.stringify could not have written it.
    // (Compared as text: a deep equality check of the parsed values would recurse as deep.)
    const savedText = readFileSync(saved, 'utf8');
    expect(savedText.startsWith('{\n  "mcpGenSnapshot": 1,\n  "protocolVersion": "2025-11-25",\n')).toBe(true);
    expect(savedText.replace(/\s/g, '')).toBe(text);
  }, 60_000);
});

describe('$ref to an $anchor', () => {
  it('resolves, in input and output schemas: the tool is kept, typed and validated', async () => {
    const count = { $anchor: 'count', type: 'integer', minimum: 0 };
    const tools = [
      { name: 'anchored', inputSchema: object({ n: { $ref: '#count' } }, { $defs: { Count: count } }), outputSchema: object({ n: { $ref: '#count' } }, { required: ['n'], $defs: { Count: count } }) },
      // Another tool with the same anchor name: each schema's anchors are its own.
      { name: 'also_anchored', inputSchema: object(), outputSchema: object({ s: { $ref: '#count' } }, { required: ['s'], $defs: { S: { $anchor: 'count', type: 'string' } } }) },
      { name: 'dangling', inputSchema: object({ n: { $ref: '#nowhere' } }) },
    ];
    const { dir, run } = await fromSnapshotText(JSON.stringify(snapshotOf(tools)));
    expect(run.code, run.err).toBe(0);
    expect(run.err).not.toContain('"anchored" left out');
    expect(run.err).not.toContain('"also_anchored" left out');
    expect(warningAbout(run.err, 'dangling')).toContain('names no $anchor');
    const usage = `import type { Client } from './client/client.js';
export async function use(client: Client): Promise<void> {
  const out: { n: number } = await client.tools.anchored({ n: 1 });
  const also: { s: string } = await client.tools.alsoAnchored();
  // @ts-expect-error n is an integer
  await client.tools.anchored({ n: 'x' });
  void out; void also;
}
`;
    expect(describeDiagnostics(checkWith(dir, { 'usage.ts': usage }))).toBe('');
    const validators = (await import(pathToFileURL(join(dir, 'client', 'validators.ts')).href)) as Record<string, (v: unknown) => boolean>;
    expect(validators['validateAnchoredOutput']!({ n: 2 })).toBe(true);
    expect(validators['validateAnchoredOutput']!({ n: -1 })).toBe(false);
    expect(validators['validateAlsoAnchoredOutput']!({ s: 'x' })).toBe(true);
    expect(validators['validateAlsoAnchoredOutput']!({ s: 1 })).toBe(false);
  }, 60_000);
});

describe('names and schemas the client cannot use as they are', () => {
  it('control characters, unknown dialects, non-object roots, misspelt keyword types and non-ECMA-262 patterns: left out, each with its reason', async () => {
    const tools = [
      { name: 'bell\u0007', inputSchema: object() },
      { name: 'esc\u001b[2J', inputSchema: object() },
      { name: 'c1\u0085', inputSchema: object() },
      { name: 'dialect', inputSchema: { $schema: 'https://example.com/my-schema', type: 'object' } },
      { name: 'string_root', inputSchema: { type: 'string' } },
      { name: 'no_type', inputSchema: { properties: {} } },
      { name: 'array_output', inputSchema: object(), outputSchema: { type: 'array' } },
      { name: 'required_string', inputSchema: object({ x: { type: 'string' } }, { required: 'x' }) },
      { name: 'minimum_string', inputSchema: object({ n: { type: 'number', minimum: '3' } }) },
      { name: 'output_typo', inputSchema: object(), outputSchema: object({ n: { type: 'integr' } }) },
      { name: 'pcre_pattern', inputSchema: object({ s: { type: 'string', pattern: '(?i)^abc$' } }) },
      { name: 'unclosed_pattern', inputSchema: object({ s: { type: 'string', pattern: '([a-z]' } }) },
      { name: 'pattern_key', inputSchema: object({}, { patternProperties: { '\\': { type: 'string' } } }) },
      { name: 'fine', inputSchema: object({ s: { type: 'string', pattern: '^\\p{L}+$' } }) },
    ];
    const { dir, run } = await fromSnapshotText(JSON.stringify(snapshotOf(tools)));
    expect(run.code, run.err).toBe(0);
    for (const name of ['bell\u0007', 'esc\u001b[2J', 'c1\u0085']) expect(warningAbout(run.err, name)).toContain('its name contains control characters');
    expect(warningAbout(run.err, 'dialect')).toContain('unknown JSON Schema dialect "https://example.com/my-schema"');
    expect(warningAbout(run.err, 'string_root')).toContain('does not describe an object');
    expect(warningAbout(run.err, 'no_type')).toContain('does not describe an object');
    expect(warningAbout(run.err, 'array_output')).toContain('its outputSchema does not describe an object');
    expect(warningAbout(run.err, 'required_string')).toContain('its inputSchema is not valid JSON Schema: /required must be array');
    expect(warningAbout(run.err, 'minimum_string')).toContain('/properties/n/minimum must be number');
    expect(warningAbout(run.err, 'output_typo')).toContain('its outputSchema is not valid JSON Schema');
    expect(warningAbout(run.err, 'pcre_pattern')).toContain('Invalid regular expression');
    expect(warningAbout(run.err, 'unclosed_pattern')).toContain('Invalid regular expression');
    expect(warningAbout(run.err, 'pattern_key')).toContain('Invalid regular expression');
    expect(run.err).not.toContain('"fine" left out');
    const client = readFileSync(join(dir, 'client', 'client.ts'), 'utf8');
    expect(client).toContain('readonly fine:');
    expect(client).not.toMatch(/bell|pcrePattern|requiredString|stringRoot/);
  }, 60_000);

  it('an outputSchema of any type is fine on 2026-07-28, where structured results may be any JSON value', async () => {
    const tools = [{ name: 'listing', inputSchema: object(), outputSchema: { type: 'array', items: { type: 'string' } } }];
    const { run } = await fromSnapshotText(JSON.stringify(snapshotOf(tools, { protocolVersion: '2026-07-28' })));
    expect(run.code, run.err).toBe(0);
    expect(run.err).not.toContain('left out');
  }, 60_000);

  it('duplicate tool names and duplicate keys in the JSON text: warnings that say "duplicate", with the place in the file', async () => {
    const text = JSON.stringify(
      snapshotOf([
        { name: 'twin', inputSchema: object() },
        { name: 'twin', description: 'second', inputSchema: object() },
        { name: 'SLOT', inputSchema: object() },
        { name: 'fine', inputSchema: object() },
      ]),
      null,
      2,
    )
      .replace('"name": "SLOT"', '"name": "shown",\n      "name": "hidden"')
      .replace('"serverInfo": {', '"serverInfo": {\n    "version": "0",');
    const { dir, run } = await fromSnapshotText(text);
    expect(run.code, run.err).toBe(0);
    expect(warningAbout(run.err, 'twin')).toContain('duplicate name');
    const line = text.split('\n').findIndex((l) => l.includes('"name": "hidden"')) + 1;
    expect(warningAbout(run.err, 'hidden')).toMatch(new RegExp(`snapshot\\.json:${line}:7: tool "hidden" left out: its JSON has a duplicate key "name" \\(at /tools/2/name\\)`));
    expect(run.err).toMatch(/snapshot\.json:\d+:\d+: duplicate key "version" in the server's JSON; the last value is used \(at \/serverInfo\/version\)/);
    const client = readFileSync(join(dir, 'client', 'client.ts'), 'utf8');
    expect(client).toContain("readonly twin: ToolCalls['twin']");
    expect(client).not.toContain('second');
    expect(client).not.toMatch(/shown|hidden/);
  }, 60_000);
});

describe('against live servers (--from-command)', () => {
  const sdkServer = join(repoRoot, 'test/client/fixtures/untrusted-sdk-server.mjs');
  const rawServer = join(repoRoot, 'test/client/fixtures/raw-json-server.mjs');

  it('the official SDK: `then` and `résumé` get readable, non-thenable names; left-out tools stay callable by wire name', async () => {
    const { dir, run } = await generate(['--from-command', `'${process.execPath}' '${sdkServer}'`]);
    expect(run.code, run.err).toBe(0);
    expect(run.err).toMatch(/^warning: .*untrusted-sdk-server\.mjs': tool "ctl\\u0007name" left out: its name contains control characters \(at \/tools\/2\)$/m);
    expect(run.err).toMatch(/tool "hidden_header" left out: x-mcp-header "Item" at \/properties\/list\/items is not statically reachable/);
    expect(run.err).toMatch(/tool "bad_required" left out: its inputSchema is not valid JSON Schema/);
    expect(run.err).not.toContain('"anchored" left out');

    const usage = `import { connect } from './client/client.js';
export const start = () => connect({ command: 'node', args: [] });
export type Then = Awaited<ReturnType<typeof start>>['tools']['then_'];
export type Resume = Awaited<ReturnType<typeof start>>['tools']['resume'];
`;
    expect(describeDiagnostics(checkWith(dir, { 'usage.ts': usage }))).toBe('');

    type Connected = {
      tools: Record<string, (input?: unknown) => Promise<{ content: { text: string }[] }>> & { then?: unknown };
      session: import('../../src/runtime/client/session.js').ClientSession;
      close(): Promise<void>;
    };
    const { connect } = await importClient<{ connect: (options: object) => Promise<Connected> }>(dir);
    // `await` would call a `then` member of the client; the client must come back as itself.
    const client = await connect({ command: process.execPath, args: [sdkServer] });
    try {
      expect(client.tools.then).toBeUndefined();
      expect((await client.tools['then_']!()).content[0]?.text).toBe('called then');
      expect((await client.tools['resume']!()).content[0]?.text).toBe('called résumé');
      // anchored: the output validator follows the anchor (minimum 0).
      await expect(client.tools['anchored']!({ n: 3 })).resolves.toEqual({ n: 3 });
      await expect(client.tools['anchored']!({ n: -1 })).rejects.toThrow(/outputSchema|output/i);
      // Left out of the typed client, still callable by wire name: the runtime's callTool on the session, or a raw request.
      const runtime = (await import(pathToFileURL(join(dir, 'client', 'runtime', 'client', 'index.ts')).href)) as typeof import('../../src/runtime/client/index.js');
      const called = (await runtime.callTool(client.session, { name: 'ctl\u0007name' }, {})) as { content: { text: string }[] };
      expect(called.content[0]?.text).toBe('called ctl\u0007name');
      const raw = await client.session.request('tools/call', { name: 'bad_required', arguments: {} });
      expect(raw).toMatchObject({ content: [{ text: 'called bad_required' }] });
    } finally {
      await client.close();
    }
  }, 120_000);

  it('a server writing duplicate keys and 10,000-level deep JSON: warnings, exit 0, the saved snapshot keeps both', async () => {
    const project = writeTempProject({});
    const saved = join(project, 'saved.json');
    const { dir, run } = await generate(['--from-command', `'${process.execPath}' '${rawServer}'`, '--save-snapshot', saved]);
    expect(run.err).not.toContain('internal error');
    expect(run.code, run.err).toBe(0);
    expect(run.err).toMatch(/^warning: .*raw-json-server\.mjs': tool "hidden" left out: its JSON has a duplicate key "name" \(at \/tools\/1\/name\)/m);
    expect(run.err).toMatch(/tool "deep_schema" left out: it is nested 20002 levels deep; mcp-gen reads at most 256 \(at \/tools\/2\)/);
    expect(run.err).toMatch(/tool "deep_meta" left out: it is nested 10002 levels deep/);
    expect(run.err).toMatch(/tool "plain" left out: duplicate name: another tool of that name is listed before it \(at \/tools\/4\)/);
    expect(run.err).toMatch(/duplicate key "version" in the server's JSON; the last value is used \(at \/result\/serverInfo\/version\)/);
    expect(readFileSync(join(dir, 'client', 'client.ts'), 'utf8')).toContain('readonly plain:');

    // Offline from what was saved: the same client and the same warnings about duplicates.
    const again = await generate(['--from-snapshot', saved]);
    expect(again.run.code, again.run.err).toBe(0);
    expect(again.run.err).toContain('tool "hidden" left out: its JSON has a duplicate key "name" (at /tools/1/name)');
    // The same code; only the banner's regenerate command differs.
    const body = (path: string): string => readFileSync(path, 'utf8').split('\n').slice(1).join('\n');
    expect(body(join(again.dir, 'client', 'client.ts'))).toBe(body(join(dir, 'client', 'client.ts')));
  }, 120_000);
});

describe('snapshot files', () => {
  it('a snapshot whose duplicateKeys record is malformed is bad input (exit 2)', async () => {
    const project = writeTempProject({ 'snapshot.json': JSON.stringify(snapshotOf([], { duplicateKeys: 'nope' })) });
    const run = await cli(['client', '--from-snapshot', join(project, 'snapshot.json'), '-o', join(project, 'out')]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('/duplicateKeys');
  });
});
