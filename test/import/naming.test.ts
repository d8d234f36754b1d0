/**
 * The names an import gives (server, tools, credential variables) and the advice it prints when it
 * keeps too many tools, which must follow the flags already given.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApi } from '../../src/import/index.js';
import { credentialPrefix, serverName, toolName } from '../../src/import/naming.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-naming-'));
let counter = 0;
function write(doc: unknown): string {
  const file = join(dir, `doc${counter++}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe('names read as a person would write them', () => {
  it.each([
    ["GitHub's official OpenAPI spec + Octokit extension", 'github'],
    ['Swagger Petstore - OpenAPI 3.0', 'petstore'],
    ['Swagger Petstore', 'petstore'],
    ['Stripe API', 'stripe'],
    ['Microsoft Graph v1.0', 'microsoft-graph'],
    ['Twilio - Api', 'twilio'],
    ['OpenAPI', 'openapi'],
    ['The Official REST API for Acme Cloud Storage Service', 'acme-cloud-storage'],
  ])('server %j → %s', (title, name) => {
    expect(serverName(title)).toBe(name);
  });

  it.each([
    ['repos/list-for-org', 'repos_list_for_org'],
    ['security-advisories/list-global-advisories', 'security_advisories_list_global_advisories'],
    ['findPetsByStatus', 'find_pets_by_status'],
    ['getHTTPResponseCode', 'get_http_response_code'],
    ['items.replace', 'items_replace'],
    ['Pets_List', 'pets_list'],
    ['get_/users/{id}', 'get_users_id'],
    ['orgs/custom-properties-for-repos-create-or-update-organization-definition', 'orgs_custom_for_repos_create_or_update_organization_definition'],
    ['actions/get-github-actions-default-workflow-permissions-organization', 'actions_get_actions_default_workflow_permissions_organization'],
  ])('tool %j → %s (one separator style)', (id, name) => {
    expect(toolName(id)).toBe(name);
    expect(name).toMatch(/^[a-z0-9]+(?:_[a-z0-9]+)*$/);
    expect(name.length).toBeLessThanOrEqual(64);
  });

  it.each([
    ['petstore', 'api_key', 'PETSTORE'],
    ['petstore', 'petstore_auth', 'PETSTORE'],
    ['acme', 'adminKey', 'ACME_ADMIN'],
    ['acme', 'BearerAuth', 'ACME'],
    ['github', 'oauth2', 'GITHUB'],
  ])('credential of %s scheme %s → %s_…', (server, scheme, prefix) => {
    expect(credentialPrefix(server, scheme)).toBe(prefix);
  });

  it('petstore imports with the variables a user would name, never API_KEY_API_KEY', async () => {
    const { manifest } = await importOpenApi(
      write({
        openapi: '3.0.3',
        info: { title: 'Swagger Petstore - OpenAPI 3.0', version: '1' },
        servers: [{ url: 'https://petstore3.swagger.io/api/v3' }],
        paths: { '/pet/{petId}': { get: { operationId: 'getPetById', parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], security: [{ api_key: [] }, { petstore_auth: ['read:pets'] }], responses: {} } } },
        components: {
          securitySchemes: {
            api_key: { type: 'apiKey', name: 'api_key', in: 'header' },
            petstore_auth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://petstore3.swagger.io/oauth/authorize', scopes: { 'read:pets': 'read' } } } },
            other_key: { type: 'apiKey', name: 'X-Other', in: 'query' },
          },
        },
      }),
    );
    const m = manifest as { server: { name: string }; tools: { name: string }[]; upstream: { auth: Record<string, Record<string, string>> } };
    expect(m.server.name).toBe('petstore');
    expect(m.tools.map((t) => t.name)).toEqual(['get_pet_by_id']);
    expect(m.upstream.auth['api_key']!['env']).toBe('PETSTORE_API_KEY');
    expect(m.upstream.auth['petstore_auth']!['env']).toBe('PETSTORE_TOKEN');
    // `other_key` says `OTHER` beyond its kind: its own variable.
    expect(m.upstream.auth['other_key']!['env']).toBe('PETSTORE_OTHER_API_KEY');
    expect(JSON.stringify(m.upstream.auth)).not.toMatch(/API_KEY_API_KEY/);
  });

  it('two schemes that would read one variable keep their whole names', async () => {
    const { manifest } = await importOpenApi(
      write({
        openapi: '3.0.3',
        info: { title: 'Acme', version: '1' },
        paths: {},
        components: { securitySchemes: { apiKey: { type: 'apiKey', name: 'k', in: 'header' }, api_key: { type: 'apiKey', name: 'key', in: 'query' } } },
      }),
    );
    const auth = (manifest as { upstream: { auth: Record<string, Record<string, string>> } }).upstream.auth;
    expect([auth['apiKey']!['env'], auth['api_key']!['env']]).toEqual(['ACME_API_KEY', 'ACME_API_KEY_API_KEY']);
  });
});

describe('the advice on too many tools follows the flags given', () => {
  // 150 operations in one tag, under three path areas of an owner/repo resource.
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 150; i++) {
    const area = i < 80 ? 'actions' : i < 120 ? 'pages' : 'hooks';
    paths[`/repos/{owner}/{repo}/${area}/op${i}`] = { get: { operationId: `repos/op-${i}`, tags: [i < 140 ? 'repos' : 'orgs'], responses: {} } };
  }
  const doc = { openapi: '3.0.3', info: { title: 'Big', version: '1' }, servers: [{ url: 'https://big.example.com' }], paths };

  it('without --tag it names tags', async () => {
    const { warnings } = await importOpenApi(write(doc));
    expect(warnings.find((w) => w.message.startsWith('150 tools'))?.message).toMatch(/--tag, e\.g\. repos \(140\), orgs \(10\)/);
  });

  it('after --tag it names path groups, not the tag already given', async () => {
    const { warnings } = await importOpenApi(write(doc), { tags: ['repos'] });
    const advice = warnings.find((w) => w.message.startsWith('140 tools'))?.message;
    expect(advice).toMatch(/^140 tools \(after --tag repos\): models choose badly/);
    expect(advice).not.toMatch(/--tag, e\.g\./);
    expect(advice).toMatch(/--path, e\.g\. '\/repos\/\*\/\*\/actions\/\*\*' \(80\), '\/repos\/\*\/\*\/pages\/\*\*' \(40\), '\/repos\/\*\/\*\/hooks\/\*\*' \(20\)/);
  });

  it('after --tag and --path it names single operations and exclusions', async () => {
    const { warnings } = await importOpenApi(write(doc), { tags: ['repos'], paths: ['/repos/**'] });
    const advice = warnings.find((w) => w.message.startsWith('140 tools'))?.message;
    expect(advice).toMatch(/after --tag repos --path '\/repos\/\*\*'/);
    expect(advice).toMatch(/--operation/);
    expect(advice).not.toMatch(/e\.g\./);
  });
});
