// GitHub's REST description (@octokit/openapi, installed cached by scripts/openapi-corpora.mjs)
// imported by `mcp-gen import openapi`, generated, and called tool by tool: each request the proxy
// sends must be exactly the one recorded here (method, path and query, body, credentials), and
// each answer comes back validated. Slow tier: parsing the 10 MB description takes seconds.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { toolName } from '../../src/import/naming.js';
import { importToFile } from '../../src/pipeline/import.js';
import { toolExamples } from '../../src/samples/tool-examples.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { corpusPath, installCorpora } from '../../scripts/openapi-corpora.mjs';
import { loadModel } from '../server/support.js';
import { generate, serve, type ServedProxy } from './harness.js';
import { json, startRecordingUpstream, type RecordingUpstream } from './recording-upstream.js';

interface Case {
  tool: string;
  args: Record<string, unknown>;
  method: string;
  url: string;
  body?: unknown;
}

const o = { owner: 'octo-org', repo: 'hello.world' };
const CASES: Case[] = [
  { tool: 'meta_root', args: {}, method: 'GET', url: '/' },
  { tool: 'repos_get', args: o, method: 'GET', url: '/repos/octo-org/hello.world' },
  { tool: 'users_get_by_username', args: { username: 'octocat' }, method: 'GET', url: '/users/octocat' },
  {
    tool: 'repos_list_for_org',
    args: { org: 'github', type: 'public', sort: 'full_name', direction: 'asc', per_page: 30, page: 2 },
    method: 'GET',
    url: '/orgs/github/repos?type=public&sort=full_name&direction=asc&per_page=30&page=2',
  },
  {
    tool: 'issues_list_for_repo',
    args: { ...o, state: 'open', labels: 'bug,ui', since: '2024-01-01T00:00:00Z', per_page: 100 },
    method: 'GET',
    url: '/repos/octo-org/hello.world/issues?state=open&labels=bug%2Cui&since=2024-01-01T00%3A00%3A00Z&per_page=100',
  },
  {
    tool: 'search_repos',
    args: { q: 'mcp language:typescript stars:>100', sort: 'stars', order: 'desc' },
    method: 'GET',
    url: '/search/repositories?q=mcp%20language%3Atypescript%20stars%3A%3E100&sort=stars&order=desc',
  },
  // Path parameters are percent-encoded whole (RFC 6570 simple expansion): a slash too.
  { tool: 'repos_get_content', args: { ...o, path: 'docs/read me.md', ref: 'feature/x' }, method: 'GET', url: '/repos/octo-org/hello.world/contents/docs%2Fread%20me.md?ref=feature%2Fx' },
  { tool: 'git_get_ref', args: { ...o, ref: 'heads/main' }, method: 'GET', url: '/repos/octo-org/hello.world/git/ref/heads%2Fmain' },
  // Arrays in the query (form, explode: true, OpenAPI's default) repeat the name.
  { tool: 'migrations_list_for_org', args: { org: 'o', exclude: ['repositories'], per_page: 10 }, method: 'GET', url: '/orgs/o/migrations?per_page=10&exclude=repositories' },
  {
    tool: 'api_insights_get_subject_stats',
    args: { org: 'o', min_timestamp: '2024-05-01T00:00:00Z', sort: ['total_request_count', 'last_request_timestamp'], direction: 'desc' },
    method: 'GET',
    url: '/orgs/o/insights/api/subject-stats?min_timestamp=2024-05-01T00%3A00%3A00Z&direction=desc&sort=total_request_count&sort=last_request_timestamp',
  },
  {
    tool: 'security_advisories_list_global_advisories',
    args: { cwes: ['79', '284'], is_withdrawn: false, affects: 'lodash@4.17.0', per_page: 5 },
    method: 'GET',
    url: '/advisories?cwes=79&cwes=284&is_withdrawn=false&affects=lodash%404.17.0&per_page=5',
  },
  {
    tool: 'orgs_list_pat_grants',
    args: { org: 'o', owner: ['octocat1', 'octocat2'], token_id: ['1', '2'] },
    method: 'GET',
    url: '/orgs/o/personal-access-tokens?owner=octocat1&owner=octocat2&token_id=1&token_id=2',
  },
  { tool: 'projects_list_items_for_org', args: { org: 'o', project_number: 3, fields: ['123', '456'], q: 'is:open' }, method: 'GET', url: '/orgs/o/projectsV2/3/items?q=is%3Aopen&fields=123&fields=456' },
  { tool: 'agent_tasks_list_tasks_for_repo', args: { ...o, creator_id: [1, 2], is_archived: true }, method: 'GET', url: '/agents/repos/octo-org/hello.world/tasks?is_archived=true&creator_id=1&creator_id=2' },
  {
    tool: 'actions_list_workflow_runs_for_repo',
    args: { ...o, branch: 'main', status: 'completed', created: '2024-01-01T00:00:00Z', exclude_pull_requests: true },
    method: 'GET',
    url: '/repos/octo-org/hello.world/actions/runs?branch=main&status=completed&created=2024-01-01T00%3A00%3A00Z&exclude_pull_requests=true',
  },
  {
    tool: 'issues_create',
    args: { ...o, body: { title: 'Crash on start', labels: ['bug'], assignees: ['octocat'] } },
    method: 'POST',
    url: '/repos/octo-org/hello.world/issues',
    body: { title: 'Crash on start', labels: ['bug'], assignees: ['octocat'] },
  },
  { tool: 'issues_update', args: { ...o, issue_number: 42, body: { state: 'closed', state_reason: 'completed' } }, method: 'PATCH', url: '/repos/octo-org/hello.world/issues/42', body: { state: 'closed', state_reason: 'completed' } },
  { tool: 'issues_add_labels', args: { ...o, issue_number: 7, body: { labels: ['a', 'b'] } }, method: 'POST', url: '/repos/octo-org/hello.world/issues/7/labels', body: { labels: ['a', 'b'] } },
  { tool: 'issues_delete_comment', args: { ...o, comment_id: 123 }, method: 'DELETE', url: '/repos/octo-org/hello.world/issues/comments/123' },
  { tool: 'activity_star_repo_for_authenticated_user', args: o, method: 'PUT', url: '/user/starred/octo-org/hello.world' },
  { tool: 'pulls_create', args: { ...o, body: { title: 'Fix', head: 'octocat:fix', base: 'main', draft: true } }, method: 'POST', url: '/repos/octo-org/hello.world/pulls', body: { title: 'Fix', head: 'octocat:fix', base: 'main', draft: true } },
  {
    tool: 'repos_create_or_update_file_contents',
    args: { ...o, path: 'a/b.txt', body: { message: 'add b', content: 'aGk=' } },
    method: 'PUT',
    url: '/repos/octo-org/hello.world/contents/a%2Fb.txt',
    body: { message: 'add b', content: 'aGk=' },
  },
  { tool: 'gists_create', args: { body: { description: 'd', public: false, files: { 'a.txt': { content: 'x' } } } }, method: 'POST', url: '/gists', body: { description: 'd', public: false, files: { 'a.txt': { content: 'x' } } } },
  { tool: 'reactions_create_for_issue', args: { ...o, issue_number: 1, body: { content: '+1' } }, method: 'POST', url: '/repos/octo-org/hello.world/issues/1/reactions', body: { content: '+1' } },
];

/** Tool name → operationId, by naming every operation of the description as the import does. */
function operationIds(description: string): Map<string, string> {
  const document = JSON.parse(readFileSync(description, 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const byTool = new Map<string, string>();
  for (const item of Object.values(document.paths)) for (const operation of Object.values(item)) if (typeof operation?.operationId === 'string') byTool.set(toolName(operation.operationId), operation.operationId);
  return byTool;
}

let upstream: RecordingUpstream;
let server: ServedProxy;
let model: ServiceModel;
let example: (tool: ServiceModel['tools'][number], which: 'input' | 'output') => unknown;

beforeAll(async () => {
  expect(installCorpora()).toBe(0);
  upstream = await startRecordingUpstream();
  const work = mkdtempSync(join(tmpdir(), 'mcp-gen-proxy-github-'));
  const manifest = join(work, 'manifest.json');
  const description = join(corpusPath('@octokit/openapi'), 'generated', 'api.github.com.json');
  const ids = operationIds(description);
  await importToFile(description, manifest, {
    operations: CASES.map((c) => ids.get(c.tool)!),
    // The local upstream stands in for api.github.com (what `--base-url` is for).
    baseUrl: `http://${upstream.host}`,
    bearerEnv: 'GITHUB_TOKEN',
    headers: { 'User-Agent': 'mcp-gen-proxy-test' },
  });
  model = await loadModel(manifest);
  example = toolExamples(model);
  process.env['GITHUB_TOKEN'] = 'ghp_upstream';
  server = await serve(await generate(manifest));
}, 300_000);

afterAll(async () => {
  await server?.close();
  await upstream?.close();
  delete process.env['GITHUB_TOKEN'];
});

describe('GitHub operations through generated proxies', () => {
  test('the import selected every operation of the table, with an http binding each', () => {
    expect(model.tools.map((t) => t.name).sort()).toEqual(CASES.map((c) => c.tool).sort());
    expect(model.tools.every((t) => t.http !== undefined)).toBe(true);
    // The list operations among them come back wrapped, so every revision gets structured results.
    expect(model.tools.filter((t) => t.http?.wrapOutput !== undefined).length).toBeGreaterThan(5);
  });

  test.each(CASES)('$tool sends $method $url', async (c) => {
    const tool = model.tools.find((t) => t.name === c.tool)!;
    const sample = tool.outputSchema === undefined ? undefined : example(tool, 'output');
    upstream.requests.length = 0;
    // A list's schema is wrapped by the import (http.wrapOutput): the upstream answers the bare list.
    const wrap = tool.http?.wrapOutput;
    const answer = sample !== undefined && wrap !== undefined ? (sample as Record<string, unknown>)[wrap] : sample;
    upstream.answer = () => (answer === undefined ? { status: 204 } : json(answer, c.method === 'POST' ? 201 : 200));
    const result = await server.call(c.tool, c.args);
    expect(upstream.requests).toHaveLength(1);
    const request = upstream.last();
    expect([request.method, request.url]).toEqual([c.method, c.url]);
    expect(request.body === '' ? undefined : JSON.parse(request.body)).toEqual(c.body);
    expect(request.headers['content-type']).toBe(c.body === undefined ? undefined : 'application/json');
    expect(request.headers['authorization']).toBe('Bearer ghp_upstream');
    expect(request.headers['user-agent']).toBe('mcp-gen-proxy-test');
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    if (sample === undefined) expect(result.content).toEqual([{ type: 'text', text: 'upstream answered 204 No Content' }]);
    else expect(result.structuredContent).toEqual(sample);
  });

  test('per_page=abc is refused before any request (a oneOf-free integer and a oneOf body alike)', async () => {
    upstream.requests.length = 0;
    expect((await server.call('repos_list_for_org', { org: 'o', per_page: 'abc' })).isError).toBe(true);
    expect((await server.call('issues_create', { ...o, body: { title: { not: 'a string or integer' } } })).isError).toBe(true);
    expect(upstream.requests).toHaveLength(0);
  });

  test('an upstream 404 is a tool error; an answer breaking the outputSchema is refused', async () => {
    upstream.answer = () => json({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest' }, 404);
    const missing = await server.call('repos_get', o);
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toMatch(/^upstream answered 404 Not Found to GET \/repos\/octo-org\/hello\.world: \{"message":"Not Found"/);
    upstream.answer = () => json({ id: 'not a number', name: 'x' });
    const broken = await server.call('repos_get', o);
    expect(broken.isError).toBe(true);
    expect(broken.structuredContent).toBeUndefined();
  });
});
