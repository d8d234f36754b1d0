/**
 * The workflow around an imported manifest (issue 31 item 3): `mcp-gen check` reports a change of
 * the OpenAPI description behind a generated server, `mcp-gen diff` compares two descriptions with
 * the manifest rules, and `mcp-gen mock` serves the imported manifest.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Http } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Console } from '../../src/cli/output.js';
import { startMock } from '../../src/mock/index.js';
import { openApiSourceOf } from '../../src/pipeline/import-ledger.js';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Console = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A small API; `variant` changes one operation the way a new release would. */
function description(variant: 'v1' | 'v2'): string {
  const limit = variant === 'v1' ? { type: 'integer' } : { type: 'integer', maximum: 50 };
  const paths: Record<string, unknown> = {
    '/items': {
      get: {
        operationId: 'listItems',
        summary: 'List items',
        parameters: [{ name: 'limit', in: 'query', schema: limit }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Item' } } }, required: ['items'] } } } } },
      },
    },
    '/items/{id}': {
      get: {
        operationId: 'getItem',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
      },
    },
  };
  if (variant === 'v1') paths['/items/{id}/archive'] = { post: { operationId: 'archiveItem', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '204': { description: 'done' } } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Items', version: variant === 'v1' ? '1.0.0' : '2.0.0' },
    servers: [{ url: 'https://items.example.com' }],
    paths,
    components: { schemas: { Item: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string', nullable: true } }, required: ['id'] } } },
  }, null, 2);
}

describe('an imported manifest in the workflow', () => {
  it('the manifest names its description and digest; check reports when the description changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-import-flow-'));
    const api = join(dir, 'api.json');
    await writeFile(api, description('v1'));
    const manifest = join(dir, 'manifest.yaml');
    const imported = await run('import', 'openapi', api, '-o', manifest);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toMatch(/3 tools from 3 of 3 operations/);
    expect(openApiSourceOf(await readFile(manifest, 'utf8'))).toEqual({ openapi: 'api.json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const server = join(dir, 'server');
    const generated = await run('server', manifest, '-o', server, '--no-version-banner');
    expect(generated.code, generated.err).toBe(0);
    const ledger = JSON.parse(await readFile(join(server, '.mcp-gen-ledger.json'), 'utf8'));
    expect(ledger.recipe.inputs).toContainEqual({ role: 'openapi', path: '../api.json', sha256: expect.any(String) });
    expect((await run('check', server)).code).toBe(0);

    await writeFile(api, description('v2'));
    const checked = await run('check', server, '--json');
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.out).outputs[0].changedInputs).toEqual([expect.stringMatching(/mcp-gen-import-flow-[^/]+\/api\.json$/)]);
    // Generating again from the old manifest says the description moved on since the import.
    const again = await run('server', manifest, '-o', server, '--no-version-banner');
    expect(again.err).toMatch(/the OpenAPI description api\.json changed since it was imported/);
  }, 60_000);

  it('diff compares two descriptions as the manifests they import to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-import-diff-'));
    await writeFile(join(dir, 'old.json'), description('v1'));
    await writeFile(join(dir, 'new.yaml'), (await import('yaml')).stringify(JSON.parse(description('v2'))));
    const diffed = await run('diff', join(dir, 'old.json'), join(dir, 'new.yaml'), '--json');
    expect(diffed.code).toBe(1);
    const report = JSON.parse(diffed.out);
    const breaking = report.findings.filter((f: { severity: string }) => f.severity === 'breaking').map((f: { item?: string; message: string }) => `${f.item ?? ''}: ${f.message}`);
    expect(breaking.join('\n')).toMatch(/archive_item/);
    expect(breaking.join('\n')).toMatch(/list_items.*maximum/);
  }, 60_000);

  it('mock serves the imported manifest: every tool answers a value valid for its output schema', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-import-mock-'));
    await writeFile(join(dir, 'api.json'), description('v1'));
    const manifest = join(dir, 'manifest.yaml');
    expect((await run('import', 'openapi', join(dir, 'api.json'), '-o', manifest)).code).toBe(0);
    const mock = await startMock({ manifest, transport: 'http' });
    const client = new Sdk2Client({ name: 'import-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new Sdk2Http(new URL(mock.url)));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['archive_item', 'get_item', 'list_items']);
      const got = await client.callTool({ name: 'get_item', arguments: { id: 'a1' } });
      expect(got.isError).toBeFalsy();
      expect(typeof (got.structuredContent as { id: unknown }).id).toBe('string');
      const listed = await client.callTool({ name: 'list_items', arguments: {} });
      expect(Array.isArray((listed.structuredContent as { items: unknown }).items)).toBe(true);
      await client.close();
    } finally {
      await mock.close();
    }
  }, 60_000);

  it('bad input exits 2 with a positioned message and writes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-import-bad-'));
    await writeFile(join(dir, 'broken.yaml'), 'openapi: 3.0.0\ninfo: {title: x, version: "1"}\npaths:\n  /a: [oops\n');
    await writeFile(join(dir, 'other.json'), '{"hello": 1}');
    const broken = await run('import', 'openapi', join(dir, 'broken.yaml'), '-o', join(dir, 'a.yaml'));
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(/broken\.yaml:5:1: YAML syntax error/);
    const other = await run('import', 'openapi', join(dir, 'other.json'), '-o', join(dir, 'b.yaml'));
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/is not an OpenAPI description/);
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(dir)).sort()).toEqual(['broken.yaml', 'other.json']);
  });
});

describe('a manifest imported before the naming rules, against one imported now', () => {
  it('diff calls the renamed tool and credential variable breaking, and says it is a rename', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-import-rename-'));
    const api = {
      openapi: '3.0.3',
      info: { title: 'Swagger Petstore - OpenAPI 3.0', version: '1' },
      servers: [{ url: 'https://petstore.example.com/api/v3' }],
      paths: { '/pet/{petId}': { get: { operationId: 'getPetById', parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], security: [{ api_key: [] }], responses: {} } } },
      components: { securitySchemes: { api_key: { type: 'apiKey', name: 'api_key', in: 'header' } } },
    };
    await writeFile(join(dir, 'api.json'), JSON.stringify(api));
    expect((await run('import', 'openapi', join(dir, 'api.json'), '-o', join(dir, 'new.yaml'))).code).toBe(0);
    // What the import wrote before: the operationId kept as it was, the scheme's name doubled.
    const yaml = await import('yaml');
    const old = yaml.parse(await readFile(join(dir, 'new.yaml'), 'utf8'));
    old.server.name = 'swagger-petstore-openapi-3-0';
    old.tools[0].name = 'getPetById';
    // Curated since: its schemas differ, yet it proxies the same operation.
    old.tools[0].inputSchema.properties.petId.description = 'The pet.';
    old.upstream.auth.api_key.env = 'API_KEY_API_KEY';
    await writeFile(join(dir, 'old.yaml'), yaml.stringify(old));
    const diffed = await run('diff', join(dir, 'old.yaml'), join(dir, 'new.yaml'), '--json');
    expect(diffed.code).toBe(1);
    const findings = JSON.parse(diffed.out).findings as { severity: string; message: string }[];
    const breaking = findings.filter((f) => f.severity === 'breaking').map((f) => f.message).join('\n');
    expect(breaking).toMatch(/tool "getPetById" removed \(likely renamed to "get_pet_by_id": same upstream operation GET \/pet\/\{petId\}\)/);
    expect(breaking).toMatch(/API_KEY_API_KEY/);
    expect(breaking).toMatch(/PETSTORE_API_KEY/);
  }, 60_000);
});

describe('import into a folder that does not exist yet', () => {
  it('makes the folder, as every other -o does, and writes the manifest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-import-folder-'));
    await writeFile(join(dir, 'api.json'), description('v1'));
    const imported = await run('import', 'openapi', join(dir, 'api.json'), '-o', join(dir, 'api', 'nested', 'manifest.yaml'));
    expect(imported.code, imported.err).toBe(0);
    expect(await readFile(join(dir, 'api', 'nested', 'manifest.yaml'), 'utf8')).toMatch(/^# yaml-language-server/);
  });
});
