/**
 * A server's metadata is untrusted: generated from a hostile snapshot, the client compiles
 * strictly, exports only its own names, importing it runs nothing, and tools the client cannot use
 * safely are left out with a warning. Also: the same snapshot gives the same bytes; --check sees drift.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { describeDiagnostics } from '../types/helpers.js';
import { checkWith, cli, generate, importClient, listTs, read } from './support.js';
import { writeTempProject } from '../types/helpers.js';

const PWN = '*/ globalThis.pwned = 1; /*';
const object = (properties: Record<string, unknown> = {}, required: string[] = []) => ({ type: 'object', properties, required });

const snapshot = {
  mcpGenSnapshot: 1,
  protocolVersion: '2025-11-25',
  serverInfo: { name: `evil ${PWN}`, version: '1\u2028' },
  capabilities: { tools: {}, prompts: {}, resources: {} },
  instructions: "`${globalThis.pwned = 2}` \u2029 */",
  tools: [
    { name: '__proto__', description: PWN, inputSchema: object({ __proto__: { type: 'string', description: PWN } }), outputSchema: object({ ok: { type: 'boolean' } }, ['ok']) },
    { name: 'constructor', title: PWN, inputSchema: object({ mode: { enum: ['a\u2028b', '*/', '"', '\\', '${x}', '\u202eevil', 'nul\u0000'] } }) },
    { name: 'class', inputSchema: object() },
    { name: 'get-user', inputSchema: object({ id: { type: 'string' } }, ['id']), outputSchema: object({ id: { type: 'string' } }, ['id']) },
    { name: 'get_user', inputSchema: object({ id: { type: 'string' } }, ['id']), outputSchema: object({ name: { type: 'string' } }, ['name']) },
    { name: 'get_user', description: 'a duplicate', inputSchema: object() },
    { name: `quote"s'and\`back\\slash\u202e`, description: `line\nbreak \u2028 ${PWN}`, inputSchema: object({ 'a"b': { type: 'string' } }) },
    { name: 'remote_ref', inputSchema: object({ x: { $ref: 'https://example.com/schema.json' } }) },
    { name: 'bad_header', inputSchema: object({ n: { type: 'object', 'x-mcp-header': 'Obj' } }) },
    { name: 'spaced_header', inputSchema: object({ n: { type: 'string', 'x-mcp-header': 'Has Space' } }) },
    { name: 'good_header', inputSchema: object({ region: { type: 'string', 'x-mcp-header': 'Region' } }) },
    { inputSchema: object() },
    { name: 'toString', inputSchema: { type: 'object', tsType: 'string; globalThis.pwned = 3', properties: { t: { type: 'string', tsType: 'never' } } } },
  ],
  prompts: [{ name: 'class', description: PWN, arguments: [{ name: '__proto__', required: true }, { name: 'x"y' }] }],
  resources: [{ uri: `file:///${PWN}`, name: 'r' }],
  resourceTemplates: [{ uriTemplate: 'file:///{__proto__}/{+rest}', name: 'constructor' }],
};

async function fromSnapshot(text: string) {
  const project = writeTempProject({ 'snapshot.json': text });
  const { dir, run } = await generate(['--from-snapshot', join(project, 'snapshot.json')]);
  return { dir, run, project };
}

describe('hostile server metadata', () => {
  it('compiles strictly, leaves unusable tools out with warnings, exports only its own names, and runs nothing on import', async () => {
    const { dir, run } = await fromSnapshot(JSON.stringify(snapshot));
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain('tool "remote_ref" left out');
    expect(run.err).toContain('tool "bad_header" left out');
    expect(run.err).toContain('tool "spaced_header" left out');
    expect(run.err).toContain('tool "get_user" left out: duplicate name');
    expect(run.err).toContain('tool #11 left out: has no name');

    const usage = `import { connect, type Client } from './client/client.js';
export async function use(client: Client): Promise<void> {
  await client.tools.proto({ ['__proto__']: 'x' });
  await client.tools.constructor_({ mode: 'a\\u2028b' });
  await client.tools.class_();
  await client.tools.getUser({ id: '1' });
  await client.tools.goodHeader({ region: 'eu' });
  await client.callTool('get-user', { id: '1' });
  await client.prompts.class_({ ['__proto__']: 'x' });
  await client.resources.templates.constructor_({ ['__proto__']: 'a', rest: 'b/c' });
  // @ts-expect-error left out
  await client.tools.remoteRef({});
  // @ts-expect-error left out
  await client.tools.badHeader({});
}
export const start = () => connect({ url: 'http://127.0.0.1:1/mcp' });
`;
    expect(describeDiagnostics(checkWith(dir, { 'usage.ts': usage }))).toBe('');
    // And under `strict` alone: nothing in the client may need exactOptionalPropertyTypes.
    const plainStrict = { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true };
    expect(describeDiagnostics(checkWith(dir, { 'usage.ts': usage }, plainStrict))).toBe('');

    // No server text outside literals and comments: the printed code, scanned token by token,
    // contains the injected text only inside string literals and comments.
    for (const file of listTs(join(dir, 'client')).filter((f) => !f.startsWith('runtime/'))) {
      const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, read(dir, `client/${file}`));
      for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
        if (token === ts.SyntaxKind.Identifier) expect(scanner.getTokenText(), file).not.toBe('pwned');
      }
    }

    // Control, bidi and line-separator characters never appear raw (the printer's sink escapes them).
    for (const file of ['client.ts', 'types.ts', 'validators.ts']) {
      expect(read(dir, `client/${file}`), file).not.toMatch(/[\u0000-\u0008\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    }

    const module = await importClient(dir);
    expect(Object.keys(module).sort()).toEqual(
      ['ConnectionClosedError', 'ListCache', 'McpError', 'OutputValidationError', 'RequestTimeoutError', 'TaskCancelledError', 'ToolError', 'connect'].sort(),
    );
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('ok');
  }, 120_000);
});

describe('determinism and drift', () => {
  it('gives the same bytes from the same snapshot, and --check reports drift', async () => {
    const first = await fromSnapshot(JSON.stringify(snapshot));
    const second = await generate(['--from-snapshot', join(first.project, 'snapshot.json')]);
    const files = listTs(join(first.dir, 'client'));
    expect(files).toEqual(listTs(join(second.dir, 'client')));
    for (const f of [...files, '.mcp-gen-ledger.json']) {
      expect(read(second.dir, `client/${f}`), f).toBe(read(first.dir, `client/${f}`));
    }
    const snapshotPath = join(first.project, 'snapshot.json');
    const args = ['client', '--from-snapshot', snapshotPath, '-o', join(first.dir, 'client'), '--no-version-banner', '--check'];
    expect((await cli(args)).code).toBe(0);
    const changed = { ...snapshot, tools: snapshot.tools.slice(2) };
    writeFileSync(snapshotPath, JSON.stringify(changed));
    const drift = await cli(args);
    expect(drift.code).toBe(1);
    expect(drift.err).toMatch(/stale: .*client\.ts/);
    // --check wrote nothing.
    expect(read(first.dir, 'client/client.ts')).toBe(read(second.dir, 'client/client.ts'));
    expect(readFileSync(snapshotPath, 'utf8')).toBe(JSON.stringify(changed));
  }, 120_000);
});
