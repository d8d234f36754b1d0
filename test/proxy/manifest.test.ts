// The manifest's `upstream` section and per-tool `http` bindings: a full one loads, each mistake
// is reported at its line:column with its pointer.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { brief, problemsOf, tempProject } from '../manifest/helpers.js';

const server = 'server: { name: s, version: "1" }';

async function write(lines: string[]): Promise<string> {
  const root = await tempProject({ 'manifest.yaml': `${lines.join('\n')}\n` });
  return path.join(root, 'manifest.yaml');
}

const FULL = [
  server,
  'upstream:',
  '  baseUrl: https://{host}/v3',
  '  variables: { host: { default: api.github.com, env: GITHUB_HOST } }',
  '  timeoutMs: 5000',
  '  headers: { User-Agent: mcp-gen-test }',
  '  auth:',
  '    token: { type: bearer, env: GITHUB_TOKEN }',
  '    key: { type: apiKey, in: header, name: X-Api-Key, env: API_KEY }',
  '    basic: { type: basic, usernameEnv: U, passwordEnv: P }',
  '    cc: { type: oauth2ClientCredentials, tokenUrl: "https://auth.example.com/token", clientIdEnv: A, clientSecretEnv: B, scopes: [x] }',
  '  source: { openapi: ./github.yaml, sha256: ' + 'a'.repeat(64) + ' }',
  'tools:',
  '  - name: repos_get',
  '    inputSchema:',
  '      type: object',
  '      properties: { owner: { type: string }, repo: { type: string }, per_page: { type: integer }, body: { type: object } }',
  '      required: [owner, repo]',
  '    http:',
  '      method: POST',
  '      path: /repos/{owner}/{repo}',
  '      parameters:',
  '        - { in: path, name: owner, argument: owner }',
  '        - { in: path, name: repo, argument: repo, style: label }',
  '        - { in: query, name: per_page, argument: per_page, style: form, explode: true, allowReserved: true }',
  '        - { in: header, name: X-Per-Page, argument: per_page }',
  '        - { in: cookie, name: session, argument: per_page }',
  '      body: { argument: body, contentType: application/json }',
  '      auth: [token, key]',
];

describe('upstream and http in the manifest', () => {
  test('a manifest using every key loads', async () => {
    await expect(loadManifest(await write(FULL))).resolves.toBeDefined();
  });

  test('schema mistakes: bad URL, unknown scheme type, a key of another scheme type, bad method, bad env name', async () => {
    const file = await write([
      server,
      'upstream:',
      '  baseUrl: ftp://x.example',
      '  auth:',
      '    a: { type: bearer, env: TOKEN, name: oops }',
      '    b: { type: magic }',
      '    c: { type: basic, usernameEnv: 1U, passwordEnv: P }',
      'tools:',
      '  - name: t',
      '    inputSchema: { type: object }',
      '    http: { method: get, path: x }',
    ]);
    expect((await problemsOf(file)).map(brief)).toEqual([
      "3:12 /upstream/baseUrl 'ftp://x.example' is not an http: or https: URL without a query or fragment",
      "5:36 /upstream/auth/a/name unknown property 'name'",
      "6:16 /upstream/auth/b/type 'magic' is not a credential scheme type",
      "7:36 /upstream/auth/c/usernameEnv '1U' is not an environment variable name",
      "11:21 /tools/0/http/method 'get' is not an HTTP method in upper case",
      "11:32 /tools/0/http/path 'x' is not a path template starting with /",
    ]);
  });

  test('cross-references: placeholders, arguments, required path arguments, auth names, styles, bodies on GET', async () => {
    const file = await write([
      server,
      'upstream:',
      '  baseUrl: https://{host}/',
      '  variables: { region: { default: eu } }',
      '  auth: { token: { type: bearer, env: T } }',
      'tools:',
      '  - name: t',
      '    inputSchema: { type: object, properties: { owner: { type: string }, q: { type: string } }, required: [] }',
      '    http:',
      '      method: GET',
      '      path: /repos/{owner}/{repo}',
      '      parameters:',
      '        - { in: path, name: owner, argument: owner }',
      '        - { in: query, name: q, argument: qq, style: matrix }',
      '        - { in: query, name: q, argument: q }',
      '        - { in: header, name: Host, argument: q }',
      '        - { in: header, name: x-a, argument: q, allowReserved: true }',
      '        - { in: path, name: extra, argument: q }',
      '      body: { argument: q }',
      '      auth: [tokn]',
    ]);
    expect((await problemsOf(file)).map(brief)).toEqual([
      "3:12 /upstream/baseUrl '{host}' has no entry in upstream.variables",
      "4:16 /upstream/variables/region 'region' is not a placeholder of https://{host}/",
      "11:13 /tools/0/http/path '{repo}' has no path parameter",
      "13:46 /tools/0/http/parameters/0/argument path parameter 'owner' needs 'owner' among the inputSchema's required properties",
      "14:43 /tools/0/http/parameters/1/argument 'qq' is not a property of the tool's inputSchema",
      "14:54 /tools/0/http/parameters/1/style style 'matrix' is not allowed for a query parameter",
      "15:30 /tools/0/http/parameters/2/name query parameter 'q' is already bound at parameters/1",
      "16:31 /tools/0/http/parameters/3/name 'Host' is set by the HTTP client, not by an argument",
      '17:49 /tools/0/http/parameters/4/allowReserved `allowReserved` applies to query parameters only',
      "18:29 /tools/0/http/parameters/5/name 'extra' is not a placeholder of /repos/{owner}/{repo}",
      "18:46 /tools/0/http/parameters/5/argument path parameter 'extra' needs 'q' among the inputSchema's required properties",
      '19:7 /tools/0/http/body a GET request has no body',
      "20:14 /tools/0/http/auth/0 'tokn' is not a scheme of upstream.auth",
    ]);
  });

  test('wrapOutput names a property of an object outputSchema', async () => {
    const file = await write([
      server,
      'upstream: { baseUrl: "https://api.example.com" }',
      'tools:',
      '  - name: a',
      '    inputSchema: { type: object }',
      '    outputSchema: { type: object, properties: { items: { type: array } } }',
      '    http: { method: GET, path: /a, wrapOutput: items }',
      '  - name: b',
      '    inputSchema: { type: object }',
      '    outputSchema: { type: object, properties: { items: { type: array } } }',
      '    http: { method: GET, path: /b, wrapOutput: list }',
    ]);
    expect((await problemsOf(file)).map(brief)).toEqual(["11:48 /tools/1/http/wrapOutput the outputSchema has no property 'list'"]);
  });

  test('body encodings: base64 for bytes, files for multipart; each misuse at its key', async () => {
    const tool = (name: string, body: string): string[] => [`  - name: ${name}`, '    inputSchema: { type: object, properties: { body: { type: string } } }', `    http: { method: POST, path: /${name}, body: ${body} }`];
    const file = await write([
      server,
      'upstream: { baseUrl: "https://api.example.com" }',
      'tools:',
      ...tool('png', '{ argument: body, contentType: image/png, encoding: base64 }'),
      ...tool('form', '{ argument: body, contentType: multipart/form-data, files: [photo] }'),
      ...tool('text', '{ argument: body, contentType: text/plain }'),
      ...tool('json64', '{ argument: body, encoding: base64 }'),
      ...tool('jsonfiles', '{ argument: body, contentType: application/json, files: [x] }'),
      ...tool('badtype', '{ argument: body, contentType: "not a type" }'),
    ]);
    expect((await problemsOf(file)).map(brief)).toEqual([
      '15:66 /tools/3/http/body/encoding `encoding` is for bytes, not for application/json',
      '18:100 /tools/4/http/body/files `files` applies to multipart/form-data bodies only',
      expect.stringMatching(/^21:\d+ \/tools\/5\/http\/body\/contentType .*media type/),
    ]);
  });

  test('an http binding without upstream', async () => {
    const file = await write([server, 'tools:', '  - name: t', '    inputSchema: { type: object }', '    http: { method: GET, path: /x }']);
    expect((await problemsOf(file)).map(brief)).toEqual(['5:5 /tools/0/http an `http` binding needs a top-level `upstream`']);
  });
});
