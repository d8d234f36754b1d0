/**
 * What the generator makes of the run-time list and identity fields of a manifest (issue 14 items
 * 1 and 7): `ToolName`/`PromptName` typing `server.tools` and `server.prompts`, the identity,
 * extensions, caching hints, page size and listed templates in the definition, escaped like all
 * manifest text; and the manifest's refusals of malformed ones.
 */
import path from 'node:path';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planServer } from '../../src/emit/server/index.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { brief, problemsOf, tempProject } from '../manifest/helpers.js';
import { repoRoot, runtimeSources, typeCheck } from './support.js';

const weatherServer = join(repoRoot, 'examples', 'weather', 'server');

describe('server.tools and server.prompts', { timeout: 180_000 }, () => {
  it("take only the manifest's names, and the filter sees names and the request context", () => {
    const body = `import { createServer } from './generated/server.js';
import { handlers } from './handlers/index.js';
const server = createServer(handlers);
server.tools.disable('get_weather');
server.prompts.enable('plan_outing');
server.tools.setFilter((name, context) => name !== 'get_forecast' || context.meta !== undefined);
server.tools.disable('get_wether');
server.prompts.disable('get_weather');
`;
    const diagnostics = typeCheck([], { [join(weatherServer, 'type-test.ts')]: body });
    expect(diagnostics).toEqual([
      expect.stringMatching(/type-test\.ts:7:22: TS2345: Argument of type '"get_wether"' is not assignable to parameter of type 'ToolName'/),
      expect.stringMatching(/type-test\.ts:8:24: TS2345: Argument of type '"get_weather"' is not assignable to parameter of type '"plan_outing"'/),
    ]);
  });
});

describe('context.lists in a handler', { timeout: 180_000 }, () => {
  const good = `{ structuredContent: { location: 'Oslo', temperature: 1, units: 'celsius', conditions: 'rain', humidity: 80 } }`;

  it("takes only the manifest's names, in every kind of handler, as server.tools does", () => {
    const body = `import type { CompletionHandlers, PromptHandlers, ResourceHandlers, ToolHandlers } from '../../generated/types.js';
export const valid: ToolHandlers['get_weather'] = async (_input, context) => {
  context.lists.tools.disable('get_forecast');
  context.lists.tools.setFilter((name) => name !== 'climate_report');
  context.lists.prompts.enable('plan_outing');
  return ${good};
};
export const tool: ToolHandlers['get_forecast'] = async (_input, context) => {
  context.lists.tools.disable('whatever');
  return { structuredContent: { location: 'Oslo', units: 'celsius', days: [] } };
};
export const prompt: PromptHandlers['plan_outing'] = async (_args, context) => {
  context.lists.prompts.disable('get_weather');
  return { messages: [] };
};
export const resource: ResourceHandlers['weather://stations'] = async (uri, context) => {
  context.lists.tools.enable('get_wether');
  return { contents: [{ uri, text: '' }] };
};
export const completion: CompletionHandlers['plan_outing']['location'] = (_value, _resolved, context) => {
  context.lists.tools.isEnabled('whatever');
  return [];
};
`;
    const diagnostics = typeCheck([], { [join(weatherServer, 'handlers', 'tools', 'type-test.ts')]: body });
    expect(diagnostics).toEqual([
      expect.stringMatching(/type-test\.ts:9:31: TS2345: Argument of type '"whatever"' is not assignable to parameter of type 'ToolName'/),
      expect.stringMatching(/type-test\.ts:13:33: TS2345: Argument of type '"get_weather"' is not assignable to parameter of type '"plan_outing"'/),
      expect.stringMatching(/type-test\.ts:17:30: TS2345: Argument of type '"get_wether"' is not assignable to parameter of type 'ToolName'/),
      expect.stringMatching(/type-test\.ts:21:33: TS2345: Argument of type '"whatever"' is not assignable to parameter of type 'ToolName'/),
    ]);
  });

  it('still accepts handlers written against the old context type (RequestContext, ToolHandler<I, O>)', () => {
    const body = `import type { RequestContext, ToolHandler } from '../../generated/runtime/api.js';
import type { GetWeatherInput, GetWeatherOutput, Handlers, ToolHandlers } from '../../generated/types.js';
import { handlers as existing } from '../index.js';
function hideByName(context: RequestContext, name: string): void {
  if (context.lists.tools.isEnabled(name)) context.lists.tools.disable(name);
}
const written: ToolHandler<GetWeatherInput, GetWeatherOutput> = async (input, context: RequestContext) => {
  hideByName(context, input.location);
  context.lists.tools.setFilter((name: string, request: RequestContext) => name.length > 0 && request.meta === undefined);
  return ${good};
};
export const handler: ToolHandlers['get_weather'] = written;
export const helperUser: ToolHandlers['get_weather'] = async (input, context) => {
  hideByName(context, input.location);
  return ${good};
};
export const handlers: Handlers = { ...existing, tools: { ...existing.tools, get_weather: written } };
`;
    expect(typeCheck([], { [join(weatherServer, 'handlers', 'tools', 'type-test.ts')]: body })).toEqual([]);
  });
});

const HOSTILE = "*/ '${x}' \u2028 </script>";

function model(): ServiceModel {
  return {
    server: { name: 'tiny', version: '1.0.0', description: HOSTILE, websiteUrl: 'https://example.com/?q=*/', icons: [{ src: 'data:image/png;base64,AA==', theme: 'dark' }] },
    protocolVersions: ['2026-07-28', '2025-11-25'],
    listChanged: true,
    subscribe: true,
    pageSize: 7,
    extensions: { 'com.example/x': { note: HOSTILE } },
    caching: { tools: { ttlMs: 1000, cacheScope: 'private' } },
    tools: [],
    resources: [],
    resourceTemplates: [{ uriTemplate: 'notes://{id}', name: 'note', ids: { pascal: 'Note', camel: 'note' }, variables: ['id'], list: true, wire: { uriTemplate: 'notes://{id}', name: 'note' } }],
    prompts: [],
    source: 'tiny.yaml',
  };
}

/**
 * The value of `<field>: <expression>,` in the generated definition, evaluated (it is a literal or
 * JSON.parse of one). prettier may break the expression over lines: it runs to the `,` that ends a
 * line before the next field or the definition's closing brace.
 */
function definitionField(text: string, field: string): unknown {
  const match = new RegExp(`^  ${field}: ([\\s\\S]*?),$(?=\\n  [A-Za-z}]|\\n})`, 'm').exec(text);
  if (match === null) throw new Error(`no ${field} in the definition`);
  return new Function(`return ${match[1]}`)();
}

describe('the generated definition', () => {
  it('carries identity, extensions, caching hints, page size and listed templates, escaped', async () => {
    const plan = await planServer(model(), { runtimeSources: runtimeSources() });
    const server = plan.files.find((f) => f.path === 'generated/server.ts')!.content;
    expect(server).not.toContain('\u2028');
    expect(definitionField(server, 'serverInfo')).toEqual(model().server);
    expect((definitionField(server, 'capabilities') as Record<string, unknown>)['extensions']).toEqual({ 'com.example/x': { note: HOSTILE } });
    expect(definitionField(server, 'caching')).toEqual({ tools: { ttlMs: 1000, cacheScope: 'private' } });
    expect(definitionField(server, 'pageSize')).toBe(7);
    expect(definitionField(server, 'listedTemplates')).toEqual(['notes://{id}']);
    expect(server).toContain('McpServer<ToolName, PromptName>');
    const types = plan.files.find((f) => f.path === 'generated/types.ts')!.content;
    expect(types).toContain("'notes://{id}': ResourceListHandler<HandlerContext>;");
    expect(types).toContain('export type HandlerContext = RequestContext<ToolName, PromptName>;');
    expect(types).toContain('resourceSubscriptions?: ResourceSubscriptionHooks;');
    expect(plan.files.find((f) => f.path === 'handlers/resource-lists.ts')?.content).toContain('"notes://{id}": async (_context) => {');
  });
});

describe('the manifest', () => {
  it('refuses an extension key without a prefix, a website that is not a URL, and a bad cache scope', async () => {
    const root = await tempProject({
      'manifest.yaml': [
        'server:',
        '  name: s',
        '  version: 1.0.0',
        '  websiteUrl: example.com',
        'protocol:',
        '  extensions:',
        '    alerts: {}',
        '  caching:',
        '    tools: { ttlMs: -1, cacheScope: shared }',
        '  pageSize: 0',
        'tools: []',
        '',
      ].join('\n'),
    });
    const problems = (await problemsOf(path.join(root, 'manifest.yaml'))).map(brief);
    expect(problems).toEqual([
      "4:15 /server/websiteUrl 'example.com' is not an http: or https: URL",
      "7:5 /protocol/extensions 'alerts' is not an extension identifier with a prefix",
      '9:21 /protocol/caching/tools/ttlMs must be at least 0',
      "9:37 /protocol/caching/tools/cacheScope 'shared' is not allowed here",
      '10:13 /protocol/pageSize must be at least 1',
    ]);
  });
});
