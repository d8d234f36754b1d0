// The manifest's `auth` section: what loads into the model, and each mistake at its line:column.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { brief, problemsOf, tempProject } from './helpers.js';

const server = 'server: { name: s, version: "1" }';
const tool = (extra = ''): string => `  - name: t\n    inputSchema: { type: object }${extra}`;

async function load(lines: string[]): Promise<{ root: string; file: string }> {
  const root = await tempProject({ 'manifest.yaml': `${lines.join('\n')}\n` });
  return { root, file: path.join(root, 'manifest.yaml') };
}

describe('manifest auth', () => {
  test('loads into the model with scopes per tool, prompt, resource and template, none on the wire', async () => {
    const { file } = await load([
      server,
      'auth:',
      '  resource: https://mcp.example.com/mcp',
      '  authorizationServers: [https://auth.example.com]',
      '  scopesSupported: [weather:read]',
      '  verifier:',
      '    jwt: { algorithms: [RS256, ES256], issuer: https://auth.example.com, clockSkewSeconds: 10, requireTyp: true }',
      'tools:',
      tool('\n    scopes: [weather:read, weather:write]'),
      'resources:',
      '  - { uri: "file:///a", name: a, scopes: [files:read] }',
      'resourceTemplates:',
      '  - { uriTemplate: "file:///{p}", name: p, scopes: [files:read] }',
      'prompts:',
      '  - { name: pr, scopes: [prompts] }',
    ]);
    const { model } = await loadManifest(file);
    expect(model.auth).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorizationServers: ['https://auth.example.com'],
      scopesSupported: ['weather:read'],
      verifier: { jwt: { issuer: 'https://auth.example.com', algorithms: ['RS256', 'ES256'], clockSkewSeconds: 10, requireTyp: true } },
    });
    expect(model.tools[0]!.scopes).toEqual(['weather:read', 'weather:write']);
    expect(model.tools[0]!.wire).not.toHaveProperty('scopes');
    expect(model.resources[0]!.scopes).toEqual(['files:read']);
    expect(model.resources[0]!.wire).not.toHaveProperty('scopes');
    expect(model.resourceTemplates[0]!.scopes).toEqual(['files:read']);
    expect(model.prompts[0]!.scopes).toEqual(['prompts']);
  });

  test('a manifest without auth has no auth and no scopes in its model', async () => {
    const { file } = await load([server, 'tools:', tool()]);
    const { model } = await loadManifest(file);
    expect(model).not.toHaveProperty('auth');
    expect(model.tools[0]).not.toHaveProperty('scopes');
  });

  test('introspection and hook verifiers load too', async () => {
    for (const verifier of ['introspection: { endpoint: https://as.example/introspect, clientId: rs, clientSecretEnv: RS_SECRET }', 'hook: true']) {
      const { file } = await load([server, 'auth:', '  resource: https://m.example/mcp', '  authorizationServers: [https://as.example]', '  verifier:', `    ${verifier}`]);
      const { model } = await loadManifest(file);
      expect(Object.keys(model.auth!.verifier)).toEqual([verifier.split(':')[0]]);
    }
  });

  test('refuses none and HS* algorithms, unknown ones, bad URLs, two verifiers and missing parts, each at its position', async () => {
    const { file } = await load([
      server,
      'auth:',
      '  resource: mcp.example.com',
      '  authorizationServers: []',
      '  verifier:',
      '    jwt: { issuer: https://as.example, algorithms: [none, HS256, RS257, ES256] }',
      '    hook: true',
      'tools:',
      tool('\n    scopes: ["has space"]'),
    ]);
    expect((await problemsOf(file)).map(brief)).toEqual([
      "3:13 /auth/resource 'mcp.example.com' is not an http: or https: URL without a fragment",
      '4:25 /auth/authorizationServers must list at least one item',
      "6:5 /auth/verifier use at most 1 of 'jwt', 'hook'",
      "6:53 /auth/verifier/jwt/algorithms/0 'none' would accept unsigned tokens",
      "6:59 /auth/verifier/jwt/algorithms/1 'HS256' is a shared-secret algorithm: anyone holding the key a resource server checks with could mint tokens",
      "6:66 /auth/verifier/jwt/algorithms/2 'RS257' is not a known JWS signature algorithm",
      "11:14 /tools/0/scopes/0 'has space' is not an OAuth scope name",
    ]);
    const { file: noVerifier } = await load([server, 'auth:', '  resource: https://m.example/mcp', '  authorizationServers: [https://as.example]']);
    expect((await problemsOf(noVerifier)).map(brief)).toEqual(["3:3 /auth/verifier missing required property 'verifier'"]);
  });

  test('scopes without an auth section are an error, not silently ignored', async () => {
    const { file } = await load([server, 'tools:', tool('\n    scopes: [a]'), 'prompts:', '  - { name: p, scopes: [b] }']);
    const problems = await problemsOf(file);
    expect(problems.map(brief)).toEqual(['5:13 /tools/0/scopes scopes need an `auth` section', '7:24 /prompts/0/scopes scopes need an `auth` section']);
    expect(problems[0]!.hint).toContain('add a top-level `auth` section');
  });

  test('offline_access in the resource scopes is a warning, not an error', async () => {
    const { file } = await load([server, 'auth:', '  resource: https://m.example/mcp', '  authorizationServers: [https://as.example]', '  scopesSupported: [read, offline_access]', '  verifier: { hook: true }']);
    const { warnings } = await loadManifest(file);
    expect(warnings.map(brief)).toEqual(["5:27 /auth/scopesSupported/1 'offline_access' is not a scope of this resource"]);
  });
});
