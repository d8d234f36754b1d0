/**
 * `context.lists` typed with the manifest's names (issue 27 item 6) still works at run time: a
 * handler typed for `RequestContext<Tool, Prompt>` disables and enables tools by name, over stdio
 * and Streamable HTTP, in both eras, and the lists and calls of every client follow.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { RequestContext, ServerDefinition, ServerHandlers, Validator } from '../../src/runtime/api.js';
import { createServer, type HttpListener, type McpServer } from '../../src/runtime/index.js';
import { requestValidators } from '../../generated/runtime/request-validators.js';
import { validateInitializeRequest } from '../../generated/runtime/initialize-validators.js';
import { statefulHttp, statelessHttp, type Connection } from '../tasks/http-connection.js';
import { Wire, meta } from '../tasks/task-server.js';

type Tool = 'echo' | 'hide_echo' | 'show_echo';
type Message = Record<string, any>;

const input = { type: 'object' };
const validateInput = new Ajv2020({ strict: false }).compile(input) as Validator<unknown>;
const TOOLS: Tool[] = ['echo', 'hide_echo', 'show_echo'];

function definition(): ServerDefinition {
  return {
    serverInfo: { name: 'lists-demo', version: '1.0.0' },
    protocolVersions: ['2026-07-28', '2025-11-25'],
    capabilities: { tools: { listChanged: true } },
    tools: TOOLS.map((name) => ({ name, inputSchema: input })),
    toolBindings: Object.fromEntries(TOOLS.map((name) => [name, { name, validateInput }])),
    resources: [],
    resourceTemplates: [],
    prompts: [],
    initializeValidator: validateInitializeRequest,
    requestValidators,
    statelessValidators: () => import('../../generated/runtime/stateless-validators.js').then((m) => m.statelessValidators),
  };
}

/** Typed as generated handlers are: `context.lists.tools` takes only these names. */
const handlers: ServerHandlers<RequestContext<Tool, never>> = {
  tools: {
    echo: () => ({ content: [{ type: 'text', text: 'echo' }] }),
    hide_echo: (_input, context) => {
      context.lists.tools.disable('echo');
      return { content: [{ type: 'text', text: String(context.lists.tools.isEnabled('echo')) }] };
    },
    show_echo: (_input, context) => {
      context.lists.tools.enable('echo');
      return { content: [{ type: 'text', text: String(context.lists.tools.isEnabled('echo')) }] };
    },
  },
};

const listeners: HttpListener[] = [];
afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
});

async function connect(server: McpServer<Tool, never>, transport: 'stdio' | 'HTTP', era: string): Promise<Connection> {
  const stateless = era === '2026-07-28';
  if (transport === 'stdio') {
    const wire = new Wire(server);
    if (!stateless) await wire.initialize();
    return { request: (method, params = {}) => wire.request(method, stateless ? { ...params, _meta: meta({}) } : params) };
  }
  const listener = await server.listenHttp({ port: 0 });
  listeners.push(listener);
  return stateless ? statelessHttp(listener.url, {}) : statefulHttp(listener.url, era);
}

const names = async (connection: Connection): Promise<string[]> =>
  ((await connection.request('tools/list'))['result']['tools'] as Message[]).map((tool) => tool['name'] as string);
const text = async (connection: Connection, name: Tool): Promise<string> =>
  (await connection.request('tools/call', { name, arguments: {} }))['result']['content'][0]['text'] as string;

describe.each(['stdio', 'HTTP'] as const)('a handler turning tools off and on through context.lists, over %s', (transport) => {
  it.each(['2025-11-25', '2026-07-28'])('at %s: the list and calls follow', async (era) => {
    const server = createServer<Tool, never>(definition(), handlers, { logger: () => {} });
    const connection = await connect(server, transport, era);
    expect(await names(connection)).toEqual(TOOLS);
    expect(await text(connection, 'hide_echo')).toBe('false');
    expect(server.tools.isEnabled('echo')).toBe(false);
    expect(await names(connection)).toEqual(['hide_echo', 'show_echo']);
    expect((await connection.request('tools/call', { name: 'echo', arguments: {} }))['error']).toEqual({ code: -32602, message: 'Tool echo is disabled' });
    expect(await text(connection, 'show_echo')).toBe('true');
    expect(await names(connection)).toEqual(TOOLS);
    expect(await text(connection, 'echo')).toBe('echo');
  });
});
