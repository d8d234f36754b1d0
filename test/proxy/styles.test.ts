// Generated proxy handlers against a recording upstream: every parameter style, the body kinds,
// each credential scheme, and how answers become results. Requests are compared exactly.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { generate, serve, type ServedProxy } from './harness.js';
import { json, startRecordingUpstream, type RecordingUpstream } from './recording-upstream.js';

const manifest = join(import.meta.dirname, 'fixtures', 'styles.yaml');
let upstream: RecordingUpstream;
let server: ServedProxy;
const ENV = ['UPSTREAM_HOST', 'TEST_TOKEN', 'TEST_KEY', 'TEST_USER', 'TEST_PASSWORD', 'TEST_CLIENT_ID', 'TEST_CLIENT_SECRET', 'TEST_UNSET_TOKEN'];

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  process.env['UPSTREAM_HOST'] = upstream.host;
  server = await serve(await generate(manifest));
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
  for (const name of ENV) delete process.env[name];
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.answer = () => json({});
  for (const name of ENV.slice(1)) delete process.env[name];
});

describe('parameters', () => {
  test('path: simple, label, matrix, exploded or not, percent-encoded per RFC 6570', async () => {
    await server.call('path_styles', { s: 'a b/ü', l: ['x', 'y'], m: { R: 1, G: 2 }, me: { R: 1, G: 2 }, la: ['x', 'y'] });
    expect(upstream.last().url).toBe('/api/p/a%20b%2F%C3%BC/.x,y/;m=R,1,G,2/;R=1;G=2/.x.y');
  });

  test('query: exploded arrays repeat, objects never become [object Object], deepObject, delimiters, allowReserved, JSON content', async () => {
    await server.call('query_styles', {
      tags: ['bug', 'help wanted'],
      ids: [1, 2],
      color: { R: 100, G: 200 },
      flat: { R: 1, B: 3 },
      filter: { state: 'open', labels: ['a', 'b'] },
      spaced: ['a', 'b'],
      piped: ['a', 'b'],
      raw: 'a/b?c=d',
      json: { k: [1] },
      per_page: 5,
    });
    expect(upstream.last().url).toBe(
      '/api/q?tags=bug&tags=help%20wanted&ids=1,2&R=100&G=200&flat=R,1,B,3&filter[state]=open&filter[labels]=a&filter[labels]=b' +
        '&spaced=a%20b&piped=a|b&raw=a/b?c=d&json=%7B%22k%22%3A%5B1%5D%7D&per_page=5',
    );
    expect(upstream.last().url).not.toContain('object');
  });

  test('headers and cookies: simple style, cookies sent (form)', async () => {
    await server.call('headers_and_cookies', { trace: 't-1', list: ['a', 'b'], obj: { R: 1, G: 2 }, session: 's p', prefs: ['x', 'y'] });
    const { headers } = upstream.last();
    expect([headers['x-trace'], headers['x-list'], headers['x-obj'], headers['cookie']]).toEqual(['t-1', 'a,b', 'R=1,G=2', 'session=s%20p; prefs=x,y']);
    expect(headers['user-agent']).toBe('proxy-test/1');
  });

  test('an argument left out sends nothing', async () => {
    await server.call('query_styles', {});
    expect(upstream.last().url).toBe('/api/q');
  });
});

describe('bodies and credentials', () => {
  test('JSON body; the first auth scheme whose variables are set (bearer) is used', async () => {
    process.env['TEST_TOKEN'] = 'upstream-secret';
    upstream.answer = () => json({ number: 7, title: 'Hi' }, 201);
    const result = await server.call('create_issue', { owner: 'o', repo: 'r', body: { title: 'Hi', labels: ['bug'] } });
    const request = upstream.last();
    expect([request.method, request.url, request.body, request.headers['content-type'], request.headers['authorization']]).toEqual([
      'POST',
      '/api/repos/o/r/issues',
      '{"title":"Hi","labels":["bug"]}',
      'application/json',
      'Bearer upstream-secret',
    ]);
    expect(result.structuredContent).toEqual({ number: 7, title: 'Hi' });
  });

  test('form body with basic credentials', async () => {
    process.env['TEST_USER'] = 'üser';
    process.env['TEST_PASSWORD'] = 'p:w';
    await server.call('form_post', { form: { a: 'x y', b: [1, 2] } });
    const request = upstream.last();
    expect([request.body, request.headers['content-type'], request.headers['authorization']]).toEqual([
      'a=x+y&b=1&b=2',
      'application/x-www-form-urlencoded',
      `Basic ${Buffer.from('üser:p:w').toString('base64')}`,
    ]);
  });

  test('API keys in the query, in a cookie beside a cookie parameter', async () => {
    process.env['TEST_KEY'] = 'k&1';
    await server.call('key_in_query', {});
    expect(upstream.last().url).toBe('/api/k?api_key=k%261');
    await server.call('key_in_header_and_cookie', { session: 's' });
    expect(upstream.last().headers['cookie']).toBe('session=s; key=k%261');
    expect(upstream.last().headers['x-api-key']).toBeUndefined();
  });

  test('OAuth client credentials: one token request, the token reused', async () => {
    process.env['TEST_CLIENT_ID'] = 'id';
    process.env['TEST_CLIENT_SECRET'] = 'secret';
    upstream.answer = (r) => (r.url === '/token' ? json({ access_token: 'minted', token_type: 'Bearer', expires_in: 3600 }) : json({}));
    await server.call('client_credentials', {});
    await server.call('client_credentials', {});
    const [token, first, second] = upstream.requests;
    expect(upstream.requests).toHaveLength(3);
    expect([token!.method, token!.body, token!.headers['authorization']]).toEqual(['POST', 'grant_type=client_credentials&scope=read+write', `Basic ${btoa('id:secret')}`]);
    expect([first!.headers['authorization'], second!.headers['authorization']]).toEqual(['Bearer minted', 'Bearer minted']);
  });

  test('the MCP request\'s own Authorization header never reaches the upstream', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'bearer', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(server.url, { requestInit: { headers: { authorization: 'Bearer caller-token', cookie: 'mcp=1' } } }));
    await client.callTool({ name: 'needs_token', arguments: {} });
    await client.close();
    const sent = JSON.stringify(upstream.last().headers);
    expect(sent).not.toContain('caller-token');
    expect(upstream.last().headers['cookie']).toBeUndefined();
    expect(upstream.last().headers['authorization']).toBeUndefined();
  });
});

describe('answers', () => {
  test('an upstream 404 or 500 is a tool error with the status and a bounded excerpt; a 401 names the unset variable', async () => {
    upstream.answer = () => json({ message: 'Not Found' }, 404);
    const notFound = await server.call('get_text', { path: 'x' });
    expect(notFound.isError).toBe(true);
    expect(notFound.content[0]!.text).toBe('upstream answered 404 Not Found to GET /api/x: {"message":"Not Found"}');
    upstream.answer = () => ({ status: 500, body: 'e'.repeat(3000) });
    const failed = await server.call('get_text', { path: 'x' });
    expect(failed.isError).toBe(true);
    expect(failed.content[0]!.text).toBe(`upstream answered 500 Internal Server Error to GET /api/x: ${'e'.repeat(1000)}… (2000 more characters)`);
    upstream.answer = () => ({ status: 401, body: 'who are you' });
    expect((await server.call('needs_token', {})).content[0]!.text).toBe('upstream answered 401 Unauthorized to GET /api/private (no credentials were sent: set TEST_UNSET_TOKEN): who are you');
  });

  test('a 2xx answer breaking the outputSchema is refused by output validation', async () => {
    process.env['TEST_TOKEN'] = 't';
    upstream.answer = () => json({ number: 'seven', title: 'Hi' }, 201);
    const result = await server.call('create_issue', { owner: 'o', repo: 'r', body: { title: 'Hi' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.stringify(result.content)).toContain('number');
  });

  test('a list answer is wrapped under wrapOutput and validated', async () => {
    upstream.answer = () => json([{ id: 1 }, { id: 2 }]);
    expect((await server.call('list_items', {})).structuredContent).toEqual({ items: [{ id: 1 }, { id: 2 }] });
    upstream.answer = () => json([{ id: 'x' }]);
    expect((await server.call('list_items', {})).isError).toBe(true);
  });

  test('other 2xx answers become content: JSON and text as text, images as image content', async () => {
    upstream.answer = () => json({ a: 1 });
    expect((await server.call('get_text', { path: 'j' })).content).toEqual([{ type: 'text', text: '{"a":1}' }]);
    upstream.answer = () => ({ headers: { 'content-type': 'image/png' }, body: new Uint8Array([137, 80, 78, 71]) });
    expect((await server.call('get_text', { path: 'i' })).content).toEqual([{ type: 'image', data: 'iVBORw==', mimeType: 'image/png' }]);
  });

  test('an answer past maxResponseBytes is a tool error', async () => {
    upstream.answer = () => ({ headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(5000) });
    expect((await server.call('get_text', { path: 'big' })).content[0]!.text).toBe('upstream answered 200 with more than 4096 bytes');
  });

  test('redirects: followed within the origin, refused to another origin', async () => {
    upstream.answer = (r) => (r.url === '/api/old' ? { status: 301, headers: { location: '/api/new' } } : { headers: { 'content-type': 'text/plain' }, body: `at ${r.url}` });
    expect((await server.call('get_text', { path: 'old' })).content[0]!.text).toBe('at /api/new');
    upstream.answer = () => ({ status: 302, headers: { location: 'http://evil.invalid/steal' } });
    const result = await server.call('get_text', { path: 'old' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe('upstream redirected GET /api/old to http://evil.invalid, another origin: not followed');
    expect(upstream.requests.every((r) => !r.url.includes('steal'))).toBe(true);
  });

  test('the timeout bounds a slow upstream', async () => {
    upstream.answer = () => ({ body: 'late', delayMs: 3000 });
    const started = Date.now();
    const result = await server.call('get_text', { path: 'slow' });
    expect(result.content[0]!.text).toBe('upstream did not answer GET /{path} within 1500 ms');
    expect(Date.now() - started).toBeLessThan(2900);
  });
});

describe('inputs', () => {
  test('a oneOf input is validated before any request: per_page=abc never goes out', async () => {
    const result = await server.call('search', { per_page: 'abc' });
    expect(result.isError).toBe(true);
    expect(upstream.requests).toHaveLength(0);
    await server.call('search', { per_page: 'all', q: 'x' });
    expect(upstream.last().url).toBe('/api/search?per_page=all&q=x');
  });
});
