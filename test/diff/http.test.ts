/**
 * HTTP bindings in `mcp-gen diff`: a proxied tool's `http` section and the manifest's `upstream`,
 * one small pair of manifests per rule (each field, each direction), diffed through the CLI with
 * every finding's severity, JSON pointer and kind asserted; then two hand-written OpenAPI
 * descriptions, compared as the manifests they import to.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Severity } from '../../src/diff/finding.js';
import { diffJson, manifest, run, snapshot, tempDir, writeJson } from './helpers.js';

type Json = { [key: string]: unknown };

interface HttpCase {
  name: string;
  /** Edit a copy of the base manifest into each side (old default: unchanged). */
  old?: (m: Manifest) => void;
  new: (m: Manifest) => void;
  /** Every finding, as [severity, pointer, kind]; order does not matter. */
  expect: [Severity, string, string][];
  message?: RegExp;
}

interface Param {
  in: string;
  name: string;
  argument: string;
  style?: string;
  explode?: boolean;
}

interface Manifest {
  upstream: {
    baseUrl: string;
    variables: Record<string, { default: string; env?: string; enum?: string[] }>;
    headers?: Record<string, string>;
    timeoutMs?: number;
    auth: Record<string, Json>;
  };
  tools: { name: string; inputSchema: { type: string; properties: Record<string, Json>; required: string[] }; http?: { method: string; path: string; parameters: Param[]; body?: Json; auth?: string[]; wrapOutput?: string } }[];
}

/** One proxied tool `t`: GET /items/{id} with a query `q`, bearer credentials. */
function base(): Manifest {
  return {
    upstream: {
      baseUrl: 'https://{host}/v1',
      variables: { host: { default: 'api.example.com', env: 'API_HOST', enum: ['api.example.com', 'eu.example.com'] } },
      headers: { 'User-Agent': 'demo' },
      auth: { token: { type: 'bearer', env: 'API_TOKEN' }, key: { type: 'apiKey', in: 'header', name: 'X-Key', env: 'API_KEY' } },
    },
    tools: [
      {
        name: 't',
        inputSchema: { type: 'object', properties: { id: { type: 'string' }, q: { type: 'string' }, r: { type: 'string' }, payload: { type: 'object' } }, required: ['id'] },
        http: {
          method: 'POST',
          path: '/items/{id}',
          parameters: [
            { in: 'path', name: 'id', argument: 'id' },
            { in: 'query', name: 'q', argument: 'q' },
          ],
          body: { argument: 'payload' },
          auth: ['token'],
        },
      },
    ],
  };
}

const H = '/tools/t/http';
const http = (m: Manifest): NonNullable<Manifest['tools'][0]['http']> => m.tools[0]!.http!;
const query = (m: Manifest): Param => http(m).parameters[1]!;

const CASES: HttpCase[] = [
  { name: 'nothing changed; defaults written out are no change', new: (m) => Object.assign(query(m), { style: 'form', explode: true }), expect: [] },
  { name: 'method changed', new: (m) => (http(m).method = 'PUT'), expect: [['compatible', `${H}/method`, 'http-method']], message: /HTTP method changed from "POST" to "PUT"/ },
  { name: 'path template moved', new: (m) => (http(m).path = '/v2/items/{id}'), expect: [['compatible', `${H}/path`, 'http-path']] },
  { name: 'query style changed', new: (m) => (query(m).style = 'pipeDelimited'), expect: [['compatible', `${H}/parameters/query/q`, 'http-serialization']], message: /style "form" → "pipeDelimited"/ },
  { name: 'query explode turned off', new: (m) => (query(m).explode = false), expect: [['compatible', `${H}/parameters/query/q`, 'http-serialization']] },
  {
    name: 'an argument moved from the query to a header',
    new: (m) => Object.assign(query(m), { in: 'header', name: 'X-Q' }),
    expect: [['compatible', `${H}/parameters/header/X-Q`, 'http-parameter-moved']],
    message: /argument "q" now goes to the header parameter "X-Q" \(was the query parameter "q"\)/,
  },
  {
    name: 'a parameter and its argument removed',
    new: (m) => {
      http(m).parameters.pop();
      delete m.tools[0]!.inputSchema.properties['q'];
    },
    expect: [
      ['compatible', `${H}/parameters/query/q`, 'http-parameter-removed'],
      ['compatible', '/tools/t/inputSchema/properties/q', 'property-removed'],
    ],
  },
  {
    name: 'a parameter removed while its argument is still accepted: the value is dropped',
    new: (m) => http(m).parameters.pop(),
    expect: [
      ['compatible', `${H}/parameters/query/q`, 'http-parameter-removed'],
      ['breaking', '/tools/t/inputSchema/properties/q', 'http-argument-dropped'],
    ],
  },
  { name: 'a parameter added', new: (m) => http(m).parameters.push({ in: 'cookie', name: 'r', argument: 'r' }), expect: [['compatible', `${H}/parameters/cookie/r`, 'http-parameter-added']] },
  {
    name: 'a parameter fed by another argument',
    new: (m) => (query(m).argument = 'r'),
    expect: [
      ['compatible', `${H}/parameters/query/q/argument`, 'http-parameter'],
      ['breaking', '/tools/t/inputSchema/properties/q', 'http-argument-dropped'],
    ],
  },
  { name: 'header names compare case-insensitively', old: (m) => http(m).parameters.push({ in: 'header', name: 'X-Trace', argument: 'r' }), new: (m) => http(m).parameters.push({ in: 'header', name: 'x-trace', argument: 'r' }), expect: [] },
  { name: 'body content type changed', new: (m) => (http(m).body = { argument: 'payload', contentType: 'application/x-www-form-urlencoded' }), expect: [['compatible', `${H}/body`, 'http-body']] },
  {
    name: 'body removed, its argument still accepted',
    new: (m) => delete http(m).body,
    expect: [
      ['compatible', `${H}/body`, 'http-body'],
      ['breaking', '/tools/t/inputSchema/properties/payload', 'http-argument-dropped'],
    ],
  },
  { name: 'wrapOutput added', new: (m) => (http(m).wrapOutput = 'items'), expect: [['compatible', `${H}/wrapOutput`, 'http-wrap-output']] },
  { name: 'a credential alternative added', new: (m) => (http(m).auth = ['token', 'key']), expect: [['compatible', `${H}/auth`, 'http-auth']] },
  { name: 'alternatives reordered', old: (m) => (http(m).auth = ['token', 'key']), new: (m) => (http(m).auth = ['key', 'token']), expect: [['compatible', `${H}/auth`, 'http-auth']] },
  { name: 'a credential alternative removed', old: (m) => (http(m).auth = ['token', 'key']), new: (m) => (http(m).auth = ['key']), expect: [['breaking', `${H}/auth`, 'http-auth']], message: /a server configured with API_TOKEN sends no credentials; set API_KEY/ },
  { name: 'credentials now needed', old: (m) => delete http(m).auth, new: () => undefined, expect: [['breaking', `${H}/auth`, 'http-auth']], message: /must set API_TOKEN/ },
  { name: 'credentials no longer sent', new: (m) => delete http(m).auth, expect: [['compatible', `${H}/auth`, 'http-auth']] },
  { name: 'binding added', old: (m) => delete m.tools[0]!.http, new: () => undefined, expect: [['compatible', H, 'http-binding']] },
  { name: 'binding removed', new: (m) => delete m.tools[0]!.http, expect: [['breaking', H, 'http-binding']] },

  // upstream
  { name: 'base URL changed', new: (m) => (m.upstream.baseUrl = 'https://{host}/v2'), expect: [['compatible', '/upstream/baseUrl', 'upstream-base-url']] },
  { name: 'variable env renamed', new: (m) => (m.upstream.variables['host']!.env = 'EXAMPLE_HOST'), expect: [['breaking', '/upstream/variables/host/env', 'upstream-env']], message: /now read from EXAMPLE_HOST \(was API_HOST\)/ },
  { name: 'variable env added', old: (m) => delete m.upstream.variables['host']!.env, new: () => undefined, expect: [['compatible', '/upstream/variables/host/env', 'upstream-env']] },
  { name: 'variable default changed', new: (m) => (m.upstream.variables['host']!.default = 'eu.example.com'), expect: [['compatible', '/upstream/variables/host/default', 'upstream-variable']] },
  { name: 'variable enum narrowed', new: (m) => (m.upstream.variables['host']!.enum = ['api.example.com']), expect: [['breaking', '/upstream/variables/host/enum', 'enum']], message: /"eu\.example\.com" is now refused/ },
  { name: 'variable enum widened', new: (m) => m.upstream.variables['host']!.enum!.push('us.example.com'), expect: [['compatible', '/upstream/variables/host/enum', 'enum']] },
  {
    name: 'variable added, then removed (it had an env)',
    old: (m) => {
      m.upstream.baseUrl = 'https://{host}/{version}';
      m.upstream.variables['version'] = { default: 'v1', env: 'API_VERSION' };
    },
    new: () => undefined,
    expect: [
      ['compatible', '/upstream/baseUrl', 'upstream-base-url'],
      ['breaking', '/upstream/variables/version', 'upstream-variable'],
    ],
    message: /API_VERSION is no longer read/,
  },
  { name: 'scheme env renamed', new: (m) => (m.upstream.auth['token']!['env'] = 'EXAMPLE_TOKEN'), expect: [['breaking', '/upstream/auth/token/env', 'upstream-env']], message: /must set "EXAMPLE_TOKEN" instead of "API_TOKEN"/ },
  { name: 'scheme type changed', new: (m) => (m.upstream.auth['token'] = { type: 'basic', usernameEnv: 'API_USER', passwordEnv: 'API_PASSWORD' }), expect: [['breaking', '/upstream/auth/token/type', 'upstream-auth']] },
  { name: 'API key header renamed', new: (m) => (m.upstream.auth['key']!['name'] = 'X-Api-Key'), expect: [['compatible', '/upstream/auth/key/name', 'upstream-auth']] },
  { name: 'scheme added', new: (m) => (m.upstream.auth['basic'] = { type: 'basic', usernameEnv: 'U', passwordEnv: 'P' }), expect: [['compatible', '/upstream/auth/basic', 'upstream-auth']] },
  { name: 'fixed header changed', new: (m) => (m.upstream.headers = { 'User-Agent': 'demo/2' }), expect: [['compatible', '/upstream/headers/User-Agent', 'upstream-header']] },
  { name: 'timeout lowered', new: (m) => (m.upstream.timeoutMs = 5000), expect: [['breaking', '/upstream/timeoutMs', 'upstream-limit']] },
  { name: 'timeout raised', new: (m) => (m.upstream.timeoutMs = 60000), expect: [['compatible', '/upstream/timeoutMs', 'upstream-limit']] },
];

function side(edit: ((m: Manifest) => void) | undefined): Json {
  const m = base();
  edit?.(m);
  return manifest(m as unknown as Json);
}

describe('mcp-gen diff: HTTP bindings and the upstream', () => {
  const dir = tempDir();
  it.each(CASES.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    const oldSide = side(c.old);
    const newSide = side(c.new);
    const report = await diffJson(writeJson(dir, `old-${i}.json`, oldSide), writeJson(dir, `new-${i}.json`, newSide));
    const got = report.findings.map((f) => [f.severity, f.pointer, f.kind]);
    const order = (a: unknown[], b: unknown[]): number => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect(got.sort(order)).toEqual([...c.expect].sort(order));
    if (c.message) expect(report.findings.map((f) => f.message)).toContainEqual(expect.stringMatching(c.message));
  });

  it('a snapshot (no bindings on the wire) against a manifest reports no binding change', async () => {
    const m = side(undefined);
    const tools = (m['tools'] as Json[]).map(({ http: _http, ...wire }) => wire);
    const report = await diffJson(writeJson(dir, 'snap.snapshot.json', snapshot({ tools })), writeJson(dir, 'with-http.json', m));
    expect(report.findings).toEqual([]);
  });

  it('the text report lists the upstream as its own item', async () => {
    const result = await run('diff', writeJson(dir, 'u-old.json', side(undefined)), writeJson(dir, 'u-new.json', side((m) => (m.upstream.auth['token']!['env'] = 'T2'))), '--no-color');
    expect(result.code).toBe(1);
    expect(result.out.join('\n')).toMatch(/\nupstream\n {2}breaking {4}credential scheme "token" env changed from "API_TOKEN" to "T2"/);
  });
});

/** A two-operation OpenAPI 3.0 description; `v2` moves things about on the HTTP side only. */
function description(version: 'v1' | 'v2'): string {
  const v2 = version === 'v2';
  const limit = { name: 'limit', in: v2 ? 'header' : 'query', schema: { type: 'integer' } };
  const tags = { name: 'tags', in: 'query', style: v2 ? 'pipeDelimited' : 'form', explode: false, schema: { type: 'array', items: { type: 'string' } } };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Items', version },
    servers: [{ url: v2 ? 'https://{region}.example.com/api' : 'https://api.example.com/api', ...(v2 ? { variables: { region: { default: 'eu' } } } : {}) }],
    components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
    paths: {
      [v2 ? '/v2/items' : '/items']: {
        get: { operationId: 'listItems', parameters: [limit, tags], responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } } },
      },
      '/items/{id}': {
        [v2 ? 'post' : 'get']: {
          operationId: 'getItem',
          ...(v2 ? { security: [{ token: [] }] } : {}),
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } } },
        },
      },
    },
  });
}

describe('mcp-gen diff: two OpenAPI descriptions', () => {
  it('reports what moved on the HTTP side, each with its rule', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'v1.json'), description('v1'));
    writeFileSync(join(dir, 'v2.json'), description('v2'));
    const report = await diffJson(join(dir, 'v1.json'), join(dir, 'v2.json'));
    expect(report.old.kind).toBe('openapi');
    const http = report.findings.filter((f) => /^(http|upstream)-/.test(f.kind)).map((f) => [f.severity, f.pointer, f.kind]);
    expect(http).toEqual([
      ['breaking', '/tools/get_item/http/auth', 'http-auth'],
      ['compatible', '/tools/get_item/http/method', 'http-method'],
      ['compatible', '/tools/list_items/http/parameters/header/limit', 'http-parameter-moved'],
      ['compatible', '/tools/list_items/http/parameters/query/tags', 'http-serialization'],
      ['compatible', '/tools/list_items/http/path', 'http-path'],
      ['compatible', '/upstream/baseUrl', 'upstream-base-url'],
      ['compatible', '/upstream/variables/region', 'upstream-variable'],
    ]);
    expect(report.findings.find((f) => f.kind === 'http-auth')?.message).toMatch(/must set ITEMS_TOKEN/);
  });
});
