/**
 * `mcp-gen import openapi` on small descriptions written for each rule: names, annotations,
 * argument shape and bindings, schema translation ($defs, recursion, nullable, oneOf), Swagger 2.0,
 * selection, and the positioned warnings for what a tool cannot express.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApi as importRaw, type ImportOptions } from '../../src/import/index.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { importToFile } from '../../src/pipeline/import.js';

type Json = Record<string, any>;

/** The import, with the manifest typed loosely for the assertions. */
async function importOpenApi(file: string, options: ImportOptions = {}): Promise<Omit<Awaited<ReturnType<typeof importRaw>>, 'manifest'> & { manifest: Json }> {
  return importRaw(file, options);
}

const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-import-'));
let counter = 0;
function write(doc: unknown, extension = 'json'): string {
  const file = join(dir, `doc${counter++}.${extension}`);
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  return file;
}

function oas(paths: Json, extra: Json = {}): Json {
  return { openapi: '3.0.3', info: { title: 'Test API', version: '1.2.3' }, servers: [{ url: 'https://api.example.com/v1' }], paths, ...extra };
}

const tool = (manifest: Json, name: string): Json => manifest['tools'].find((t: Json) => t['name'] === name);

describe('import openapi: operations become tools', () => {
  it('names, titles, descriptions and annotations come from the operation and its method', async () => {
    const file = write(oas({
      '/items/{id}': {
        get: { operationId: 'items/get', summary: 'Get an item', description: 'Returns one item.', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } },
        put: { operationId: 'items.replace', responses: { '204': { description: 'done' } } },
        delete: { responses: { '204': { description: 'gone' } } },
      },
      '/items': { post: { operationId: 'createItem', responses: { '201': { description: 'made' } } } },
    }));
    const { manifest } = await importOpenApi(file);
    expect(manifest['tools'].map((t: Json) => t['name'])).toEqual(['items_get', 'items_replace', 'delete_items_id', 'create_item']);
    expect(tool(manifest, 'items_get')).toMatchObject({ title: 'Get an item', description: 'Returns one item.', annotations: { readOnlyHint: true } });
    expect(tool(manifest, 'items_replace')['annotations']).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(tool(manifest, 'delete_items_id')['annotations']).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tool(manifest, 'create_item')['annotations']).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(manifest['server']).toMatchObject({ name: 'test', version: '1.2.3', title: 'Test API' });
    expect(manifest['upstream']).toMatchObject({ baseUrl: 'https://api.example.com/v1' });
  });

  it('colliding and over-long names are made unique in document order, and each rename is reported with its position', async () => {
    const long = 'x'.repeat(80);
    const file = write(oas({
      '/a': { get: { operationId: 'same', responses: {} }, post: { operationId: long, responses: {} } },
      '/b': { get: { operationId: 'same', responses: {} }, post: { operationId: long + 'y', responses: {} } },
    }));
    const { manifest, warnings } = await importOpenApi(file);
    const names = manifest['tools'].map((t: Json) => t['name']);
    expect(names).toEqual(['same', 'x'.repeat(64), 'same_2', 'x'.repeat(62) + '_2']);
    expect(names.every((n: string) => /^[A-Za-z0-9_.-]{1,64}$/.test(n))).toBe(true);
    const renames = warnings.filter((w) => w.message.includes('is taken'));
    expect(renames).toHaveLength(2);
    expect(renames[0]).toMatchObject({ pointer: '/paths/~1b/get' });
    expect(renames[0]!.line).toBeGreaterThan(1);
  });

  it('parameters of every location become flat arguments, with their serialization in the binding', async () => {
    const file = write(oas({
      '/users/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: {
          operationId: 'getUser',
          parameters: [
            { name: 'id', in: 'query', schema: { type: 'string' } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } }, explode: false },
            { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', properties: { a: { type: 'string' } } } },
            { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string' } },
            { name: 'Accept', in: 'header', schema: { type: 'string' } },
            { name: 'session', in: 'cookie', schema: { type: 'string' } },
            { name: 'where', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } },
          ],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } } },
        },
      },
    }));
    const { manifest } = await importOpenApi(file);
    const t = tool(manifest, 'get_user');
    expect(Object.keys(t['inputSchema']['properties'])).toEqual(['id', 'query_id', 'tags', 'filter', 'X-Trace', 'session', 'where']);
    expect(t['inputSchema']['required']).toEqual(['id', 'X-Trace']);
    expect(t['inputSchema']['additionalProperties']).toBe(false);
    expect(t['http']).toEqual({
      method: 'GET',
      path: '/users/{id}',
      parameters: [
        { in: 'path', name: 'id', argument: 'id' },
        { in: 'query', name: 'id', argument: 'query_id' },
        { in: 'query', name: 'tags', argument: 'tags', explode: false },
        { in: 'query', name: 'filter', argument: 'filter', style: 'deepObject', explode: true },
        { in: 'header', name: 'X-Trace', argument: 'X-Trace' },
        { in: 'cookie', name: 'session', argument: 'session' },
        { in: 'query', name: 'where', argument: 'where', contentType: 'application/json' },
      ],
    });
    expect(t['outputSchema']).toEqual({ type: 'object', properties: { id: { type: 'integer' } } });
  });

  it('the JSON request body is the argument `body` (`request_body` when a parameter has that name)', async () => {
    const body = { required: true, content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'number' } } } } } };
    const file = write(oas({
      '/a': { post: { operationId: 'a', requestBody: body, responses: {} } },
      '/b': { post: { operationId: 'b', parameters: [{ name: 'body', in: 'query', schema: { type: 'string' } }], requestBody: body, responses: {} } },
      '/c': { post: { operationId: 'c', requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } } }, responses: {} } },
    }));
    const { manifest } = await importOpenApi(file);
    expect(tool(manifest, 'a')['http']['body']).toEqual({ argument: 'body' });
    expect(tool(manifest, 'a')['inputSchema']['required']).toEqual(['body']);
    expect(tool(manifest, 'b')['http']['body']).toEqual({ argument: 'request_body' });
    expect(tool(manifest, 'c')['http']['body']).toEqual({ argument: 'body', contentType: 'application/x-www-form-urlencoded' });
    expect(tool(manifest, 'c')['inputSchema']['required']).toBeUndefined();
  });
});

describe('import openapi: schemas', () => {
  it('components become $defs, recursion stays a reference, 3.0 keywords are translated', async () => {
    const file = write(oas(
      { '/nodes': { get: { operationId: 'listNodes', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } } } },
      {
        components: {
          schemas: {
            Node: {
              type: 'object',
              required: ['name'],
              properties: {
                name: { type: 'string', nullable: true, example: 'root', format: 'int32-ish' },
                size: { type: 'integer', format: 'int64', minimum: 0, exclusiveMinimum: true },
                kind: { type: 'string', enum: ['a', 'b'], nullable: true },
                children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
                shape: { oneOf: [{ $ref: '#/components/schemas/Circle' }, { type: 'string' }], discriminator: { propertyName: 'x' } },
              },
              xml: { name: 'node' },
            },
            Circle: { type: 'object', properties: { r: { type: 'number', format: 'decimal128' } }, 'x-internal': true },
            Unused: { type: 'string' },
          },
        },
      },
    ));
    const { manifest } = await importOpenApi(file);
    expect(Object.keys(manifest['$defs'])).toEqual(['Circle', 'Node']);
    const node = manifest['$defs']['Node'];
    expect(node['properties']['name']).toEqual({ type: ['string', 'null'], examples: ['root'] });
    expect(node['properties']['size']).toEqual({ type: 'integer', format: 'int64', exclusiveMinimum: 0 });
    expect(node['properties']['kind']).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(node['properties']['children']).toEqual({ type: 'array', items: { $ref: '#/$defs/Node' } });
    expect(node['properties']['shape']).toEqual({ oneOf: [{ $ref: '#/$defs/Circle' }, { type: 'string' }] });
    expect(node['xml']).toBeUndefined();
    expect(manifest['$defs']['Circle']).toEqual({ type: 'object', properties: { r: { type: 'number' } } });
    // The output's root is the object itself (the stateful revisions need `type: object` there).
    expect(tool(manifest, 'list_nodes')['outputSchema']['type']).toBe('object');
  });

  it('the imported manifest loads: its schemas compile, recursion included', async () => {
    const file = write(oas(
      { '/t': { post: { operationId: 'tree', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Tree' } } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Tree' } } } } } } } },
      { components: { schemas: { Tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/components/schemas/Tree' } }, re: { type: 'string', pattern: '^\\_+$' } } } } } },
    ));
    const out = join(dir, 'tree.yaml');
    const run = await importToFile(file, out, {});
    expect(run.warnings.map((w) => w.message).join('\n')).toMatch(/1 pattern JavaScript's regular expressions cannot compile/);
    const { model } = await loadManifest(out);
    expect(model.tools.map((t) => t.name)).toEqual(['tree']);
  });
});

describe('import openapi: Swagger 2.0', () => {
  it('body and formData parameters, query and path parameters all reach the tool', async () => {
    const file = write({
      swagger: '2.0',
      info: { title: 'Old', version: '1' },
      host: 'old.example.com',
      basePath: '/api',
      schemes: ['https'],
      consumes: ['application/json'],
      paths: {
        '/pets/{petId}': {
          post: {
            operationId: 'updatePet',
            parameters: [
              { name: 'petId', in: 'path', required: true, type: 'integer' },
              { name: 'dryRun', in: 'query', type: 'boolean' },
              { name: 'ids', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' },
              { name: 'pet', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } },
            ],
            responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Pet' } } },
          },
        },
      },
      definitions: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
    });
    const { manifest, source } = await importOpenApi(file);
    expect(source.version).toBe('2.0');
    expect(manifest['upstream']['baseUrl']).toBe('https://old.example.com/api');
    const t = tool(manifest, 'update_pet');
    expect(Object.keys(t['inputSchema']['properties'])).toEqual(['petId', 'dryRun', 'ids', 'body']);
    expect(t['inputSchema']['required']).toEqual(['petId', 'body']);
    expect(t['http']['parameters']).toEqual([
      { in: 'path', name: 'petId', argument: 'petId' },
      { in: 'query', name: 'dryRun', argument: 'dryRun' },
      { in: 'query', name: 'ids', argument: 'ids' },
    ]);
    expect(t['http']['body']).toEqual({ argument: 'body' });
    expect(t['inputSchema']['properties']['body']['$ref']).toBe('#/$defs/Pet');
  });
});

describe('import openapi: what a tool cannot express is left out, with a positioned warning', () => {
  it('multipart, binary and XML bodies become typed arguments; callbacks and webhooks are reported, webhooks as one line', async () => {
    const text = JSON.stringify(
      {
        openapi: '3.0.3',
        info: { title: 'W', version: '1' },
        servers: [{ url: 'https://w.example.com' }],
        paths: {
          '/upload': {
            post: {
              operationId: 'upload',
              requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' }, note: { type: 'string' }, pages: { type: 'array', items: { type: 'string', format: 'binary' } } } } } } },
              responses: {},
            },
          },
          '/raw': { post: { operationId: 'raw', requestBody: { required: true, content: { 'image/png': { schema: { type: 'string', format: 'binary' } }, 'image/jpeg': {} } }, responses: {} } },
          '/xml': { put: { operationId: 'xml', requestBody: { required: true, content: { 'application/xml': { schema: { type: 'object' } } } }, responses: {} } },
          '/sub': { post: { operationId: 'subscribe', callbacks: { onEvent: {} }, responses: {} } },
        },
        'x-webhooks': { newPet: { post: { responses: {} } }, soldPet: { post: { responses: {} } }, lostPet: { post: { responses: {} } }, foundPet: { post: { responses: {} } } },
      },
      null,
      2,
    );
    const file = write(text);
    const { manifest, warnings, stats } = await importOpenApi(file);
    expect(manifest['tools'].map((t: Json) => t['name'])).toEqual(['upload', 'raw', 'xml', 'subscribe']);
    expect(stats).toMatchObject({ operations: 4, selected: 4, tools: 4, skipped: 0 });
    const upload = tool(manifest, 'upload');
    expect(upload['http']['body']).toEqual({ argument: 'body', contentType: 'multipart/form-data', files: ['file', 'pages'] });
    expect(upload['inputSchema']['properties']['body']['properties']).toEqual({
      file: { type: 'string', contentEncoding: 'base64' },
      note: { type: 'string' },
      pages: { type: 'array', items: { type: 'string', contentEncoding: 'base64' } },
    });
    expect(upload['inputSchema']['required']).toEqual(['body']);
    const raw = tool(manifest, 'raw');
    expect(raw['http']['body']).toEqual({ argument: 'body', contentType: 'image/png', encoding: 'base64' });
    expect(raw['inputSchema']['properties']['body']).toMatchObject({ type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' });
    expect(tool(manifest, 'xml')['http']['body']).toEqual({ argument: 'body', contentType: 'application/xml' });
    expect(tool(manifest, 'xml')['inputSchema']['properties']['body']).toMatchObject({ type: 'string' });
    const lineOf = (needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const byPointer = new Map(warnings.map((w) => [w.pointer, w]));
    expect(warnings.some((w) => /body .* is left out/.test(w.message))).toBe(false);
    expect(byPointer.get('/paths/~1sub/post')?.message).toMatch(/callbacks .*onEvent/);
    // Four webhooks, one warning, at the map itself.
    expect(warnings.filter((w) => /webhook/.test(w.message))).toHaveLength(1);
    expect(byPointer.get('/x-webhooks')).toMatchObject({ line: lineOf('"x-webhooks"'), message: expect.stringMatching(/^4 webhooks skipped \(webhooks are not operations.*'newPet', 'soldPet', 'lostPet', … \(1 more\)$/) });
    // Every left-out part is positioned (the validator's own findings name no place: it reports none).
    for (const w of warnings.filter((w) => !w.message.startsWith('not valid OpenAPI'))) expect(w.line, w.message).toBeGreaterThan(0);
  });

  it('warns past 100 tools, naming the tags to filter by', async () => {
    const paths: Json = {};
    for (let i = 0; i < 101; i++) paths[`/p${i}`] = { get: { operationId: `op${i}`, tags: [i < 70 ? 'big' : 'small'], responses: {} } };
    const many = await importOpenApi(write(oas(paths)));
    expect(many.warnings.find((w) => w.message.includes('101 tools'))?.message).toMatch(/--tag, e\.g\. big \(70\), small \(31\)/);
    const few = await importOpenApi(write(oas(paths)), { tags: ['small'] });
    expect(few.stats.tools).toBe(31);
    expect(few.warnings.some((w) => w.message.includes('tools: models choose badly'))).toBe(false);
  });
});

describe('import openapi: selection', () => {
  const paths = {
    '/repos/{o}/{r}': { get: { operationId: 'repos/get', tags: ['repos'], responses: {} }, delete: { operationId: 'repos/delete', tags: ['repos'], responses: {} } },
    '/repos/{o}/{r}/issues': { get: { operationId: 'issues/list', tags: ['issues'], responses: {} } },
    '/user': { get: { operationId: 'users/me', tags: ['users'], responses: {} } },
  };
  const names = async (options: Json): Promise<string[]> => (await importOpenApi(write(oas(paths)), options)).manifest['tools'].map((t: Json) => t['name']);

  it('--tag, --path globs, --operation and their exclusions', async () => {
    expect(await names({ tags: ['repos'] })).toEqual(['repos_get', 'repos_delete']);
    expect(await names({ paths: ['/repos/*/*'] })).toEqual(['repos_get', 'repos_delete']);
    expect(await names({ paths: ['/repos/**'] })).toEqual(['repos_get', 'repos_delete', 'issues_list']);
    expect(await names({ operations: ['users/me'] })).toEqual(['users_me']);
    expect(await names({ tags: ['repos'], excludeOperations: ['repos/delete'] })).toEqual(['repos_get']);
    expect(await names({ excludeTags: ['repos'], excludePaths: ['/user'] })).toEqual(['issues_list']);
  });
});

describe('import openapi: upstream credentials', () => {
  it('security schemes become env-named credentials; operations list the ones they accept', async () => {
    const file = write(oas(
      {
        '/a': { get: { operationId: 'a', security: [{ key: [] }, { token: [] }], responses: {} } },
        '/b': { get: { operationId: 'b', security: [], responses: {} } },
        '/c': { get: { operationId: 'c', responses: {} } },
      },
      {
        security: [{ cc: [] }],
        components: {
          securitySchemes: {
            key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
            token: { type: 'http', scheme: 'bearer' },
            basicAuth: { type: 'http', scheme: 'basic' },
            cc: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { read: 'read' } } } },
            digest: { type: 'http', scheme: 'digest' },
          },
        },
      },
    ));
    const { manifest, warnings } = await importOpenApi(file);
    expect(manifest['upstream']['auth']).toEqual({
      key: { type: 'apiKey', in: 'header', name: 'X-Api-Key', env: 'TEST_API_KEY' },
      token: { type: 'bearer', env: 'TEST_TOKEN' },
      basicAuth: { type: 'basic', usernameEnv: 'TEST_USERNAME', passwordEnv: 'TEST_PASSWORD' },
      cc: { type: 'oauth2ClientCredentials', tokenUrl: 'https://auth.example.com/token', clientIdEnv: 'TEST_CC_CLIENT_ID', clientSecretEnv: 'TEST_CC_CLIENT_SECRET', scopes: ['read'] },
    });
    expect(tool(manifest, 'a')['http']['auth']).toEqual(['key', 'token']);
    expect(tool(manifest, 'b')['http']['auth']).toBeUndefined();
    expect(tool(manifest, 'c')['http']['auth']).toEqual(['cc']);
    expect(warnings.find((w) => w.pointer === '/components/securitySchemes/digest')?.message).toMatch(/digest.*left out/);
  });

  it('server variables become env-overridable under UPSTREAM_ names, never a bare HOSTNAME or PORT', async () => {
    const servers = [{ url: '{protocol}://{hostname}:{port}/api/v3', variables: { protocol: { default: 'http' }, hostname: { default: 'HOSTNAME' }, port: { default: '8443', enum: ['443', '8443'] } } }];
    const { manifest } = await importOpenApi(write(oas({ '/a': { get: { operationId: 'a', responses: {} } } }, { servers })));
    expect(manifest['upstream']['baseUrl']).toBe('http://{hostname}:{port}/api/v3');
    expect(manifest['upstream']['variables']).toEqual({
      hostname: { default: 'HOSTNAME', env: 'UPSTREAM_HOSTNAME' },
      port: { default: '8443', env: 'UPSTREAM_PORT', enum: ['443', '8443'] },
    });
  });

  it('--bearer-env gives every operation without credentials a bearer token; --header adds fixed headers', async () => {
    const file = write(oas({ '/a': { get: { operationId: 'a', responses: {} } }, '/b': { get: { operationId: 'b', security: [{ key: [] }], responses: {} } } }, { components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'k' } } } }));
    const { manifest } = await importOpenApi(file, { bearerEnv: 'GITHUB_TOKEN', headers: { 'User-Agent': 'mcp-gen-test' } });
    expect(manifest['upstream']['auth']['bearer']).toEqual({ type: 'bearer', env: 'GITHUB_TOKEN' });
    expect(manifest['upstream']['headers']).toEqual({ 'User-Agent': 'mcp-gen-test' });
    expect(tool(manifest, 'a')['http']['auth']).toEqual(['bearer']);
    expect(tool(manifest, 'b')['http']['auth']).toEqual(['key']);
  });
});

describe('import openapi: schemas the generated types name once', () => {
  it('a definition extending another (allOf plus its own properties) shared by two tools type-checks', async () => {
    const rule = { allOf: [{ $ref: '#/components/schemas/Base' }], description: 'A rule.', type: 'object', properties: { p: { type: 'string' } }, required: ['p'] };
    const file = write(oas(
      {
        '/a': { put: { operationId: 'a', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Rule' } } } }, responses: {} } },
        '/b': { put: { operationId: 'b', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Rule' } } } }, responses: {} } },
      },
      { components: { schemas: { Base: { type: 'object', properties: { id: { type: 'string' } } }, Rule: rule } } },
    ));
    const { manifest } = await importOpenApi(file);
    expect(manifest['$defs']['Rule']).toEqual({ allOf: [{ $ref: '#/$defs/Base' }, { properties: { p: { type: 'string' } }, required: ['p'] }], description: 'A rule.', type: 'object' });
    const out = join(dir, 'rule.yaml');
    await importToFile(file, out, {});
    const { model } = await loadManifest(out);
    const { planServer } = await import('../../src/emit/server/index.js');
    const { readRuntimeSources } = await import('../../src/pipeline/server.js');
    const plan = await planServer(model, { runtimeSources: readRuntimeSources(), importExtension: 'js' });
    const types = plan.files.find((f) => f.path === 'generated/types.ts');
    const text = String(types?.content ?? '');
    const declared = [...text.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]);
    expect(declared.length).toBeGreaterThan(0);
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('an answer that is not an object is wrapped (`items` for a list, `value` else), and the binding says so', async () => {
    const file = write(oas(
      {
        '/list': { get: { operationId: 'list', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Names' } } } } } } },
        '/text': { get: { operationId: 'text', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'string' } } } } } } },
        '/obj': { get: { operationId: 'obj', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } } },
      },
      { components: { schemas: { Names: { type: 'array', items: { type: 'string' } }, Thing: { type: 'object', properties: { a: { type: 'string' } } } } } },
    ));
    const { manifest } = await importOpenApi(file);
    expect(tool(manifest, 'list')['outputSchema']).toEqual({ type: 'object', properties: { items: { $ref: '#/$defs/Names' } }, required: ['items'], additionalProperties: false });
    expect(tool(manifest, 'list')['http']['wrapOutput']).toBe('items');
    expect(tool(manifest, 'text')['outputSchema']['properties']).toEqual({ value: { type: 'string' } });
    expect(tool(manifest, 'text')['http']['wrapOutput']).toBe('value');
    expect(tool(manifest, 'obj')['http']['wrapOutput']).toBeUndefined();
    const out = join(dir, 'wrapped.yaml');
    await importToFile(file, out, {});
    const loaded = await loadManifest(out);
    // No tool needs the "only 2026-07-28 clients see it" warning any more.
    expect(loaded.warnings.filter((w) => /only 2026-07-28 clients/.test(w.message))).toEqual([]);
  });

  it('parameters the proxy could not send are left out with a warning; odd media types and styles are normalized', async () => {
    const file = write(oas({
      '/a/{id}': {
        post: {
          operationId: 'a',
          parameters: [
            { name: 'id', in: 'path', required: true, style: 'form', schema: { type: 'string' } },
            { name: 'ghost', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'Content-Length', in: 'header', schema: { type: 'integer' } },
            { name: 'X-Mode', in: 'header', schema: { type: 'string' } },
            { name: 'x-mode', in: 'header', schema: { type: 'string' } },
          ],
          requestBody: { content: { 'application/JSON; charset=utf-8': { schema: { type: 'object' } } } },
          responses: {},
        },
      },
      '/b': { put: { operationId: 'b', requestBody: { content: { '*/*': { schema: { type: 'object' } } } }, responses: {} } },
    }));
    const { manifest, warnings } = await importOpenApi(file);
    expect(tool(manifest, 'a')['http']['parameters']).toEqual([
      { in: 'path', name: 'id', argument: 'id' },
      { in: 'header', name: 'X-Mode', argument: 'X-Mode' },
    ]);
    expect(tool(manifest, 'a')['http']['body']).toEqual({ argument: 'body' });
    expect(tool(manifest, 'b')['http']['body']).toEqual({ argument: 'body' });
    const messages = warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/path parameter 'ghost' .* no such placeholder/);
    expect(messages).toMatch(/header parameter 'Content-Length' .* sets that header itself/);
    expect(messages).toMatch(/header parameter 'x-mode' .* already bound/);
    const out = join(dir, 'normalized.yaml');
    await importToFile(file, out, {});
    await loadManifest(out);
  });
});
