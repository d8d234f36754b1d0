/**
 * The demo server of the runtime tests, extended for 2026-07-28: it also serves the stateless
 * revision, announces list changes, and has a tool whose `region` argument is mirrored into the
 * `Mcp-Param-Region` header.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject, ServerDefinition, ServerHandlers, Validator } from '../../src/runtime/api.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';

const ajv = new Ajv2020({ strict: false });
const regionInput = {
  type: 'object',
  properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, count: { type: 'integer', 'x-mcp-header': 'Count' } },
  required: ['region'],
};

/** 2026-07-28 allows any JSON Schema as outputSchema; older sessions must never see this one. */
const citiesOutput = { type: 'array', items: { type: 'string' } };

export const REVISION = '2026-07-28';

/** The `_meta` every 2026-07-28 result of the demo server carries: its identity. */
export const SERVER_META = { 'io.modelcontextprotocol/serverInfo': { name: 'runtime-demo', version: '1.0.0' } };

export function statelessDefinition(): ServerDefinition {
  const base = buildDefinition(100);
  return {
    ...base,
    protocolVersions: [REVISION, ...base.protocolVersions],
    // As generated servers do: loaded with the first 2026-07-28 request.
    statelessValidators: () => import('../../generated/runtime/stateless-validators.js').then((m) => m.statelessValidators),
    capabilities: { ...base.capabilities, tools: { listChanged: true }, prompts: { listChanged: true } },
    tools: [
      ...base.tools,
      { name: 'region', description: 'Echoes its region', inputSchema: regionInput },
      { name: 'poll', description: 'Closes its stream early, then finishes', inputSchema: { type: 'object' } },
      { name: 'cities', description: 'A list, as structured output', inputSchema: { type: 'object' }, outputSchema: citiesOutput },
    ],
    toolBindings: {
      ...base.toolBindings,
      region: { name: 'region', validateInput: ajv.compile(regionInput) as Validator<unknown> },
      poll: { name: 'poll', validateInput: ajv.compile({ type: 'object' }) as Validator<unknown> },
      cities: {
        name: 'cities',
        validateInput: ajv.compile({ type: 'object' }) as Validator<unknown>,
        validateOutput: ajv.compile(citiesOutput) as Validator<unknown>,
      },
    },
  };
}

export const statelessHandlers: ServerHandlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    cities: () => ({ structuredContent: ['Tokyo', 'Delhi'] }),
    poll: async (_input: unknown, context) => {
      await context.progress(1, 3);
      context.closeStream(100);
      await context.progress(2, 3);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await context.progress(3, 3);
      return { content: [{ type: 'text', text: 'polled' }] };
    },
    region: (input: { region: string }, context) => {
      context.notify.toolsChanged();
      return { content: [{ type: 'text', text: `region ${input.region}` }] };
    },
  },
};

export function meta(capabilities: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': REVISION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
    ...extra,
  };
}

/** The standard headers a conforming 2026-07-28 client sends for this request. */
export function standardHeaders(method: string, params: JsonObject): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': REVISION,
    'mcp-method': method,
  };
  const name = method === 'resources/read' ? params['uri'] : method === 'tools/call' || method === 'prompts/get' ? params['name'] : undefined;
  if (typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}

export interface Answer {
  status: number;
  body: any;
  /** Every SSE message, in order, when the answer was a stream. */
  messages: any[];
  contentType: string | null;
}

/** POSTs one 2026-07-28 request; `headers` replace or (with value undefined) remove standard ones. */
export async function call(
  url: string,
  method: string,
  params: JsonObject,
  options: { id?: number | string; headers?: Record<string, string | undefined>; raw?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...standardHeaders(method, params) };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  const body = options.raw ?? { jsonrpc: '2.0', id: options.id ?? 1, method, params };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  if (contentType === 'text/event-stream') {
    const messages = text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line !== 'data: ')
      .map((line) => JSON.parse(line.slice(6)));
    return { status: response.status, body: messages.at(-1), messages, contentType };
  }
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), messages: [], contentType };
}
