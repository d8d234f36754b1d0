/**
 * The client command the official MCP conformance suite runs: `npm run -s example:conformance-client -- <url>`.
 * Built on the client mcp-gen generated from ./manifest.yaml (`client/`). The suite says what to do
 * through the environment:
 * - MCP_CONFORMANCE_SCENARIO: the scenario;
 * - MCP_CONFORMANCE_PROTOCOL_VERSION: `2026-07-28` means the stateless revision; anything else (or
 *   nothing) the stateful ones;
 * - MCP_CONFORMANCE_CONTEXT: JSON, e.g. `{ toolCalls: [{ name, arguments }] }`.
 * Exits 0 when the scenario's calls were made, 1 on an unexpected failure.
 */
import { connect, type Client, type Handlers } from './client/client.js';
import { bindListedTool, callTool } from './client/runtime/client/index.js';
import { authFor } from './auth.js';

type Json = { [key: string]: unknown };

const url = process.argv.at(-1);
if (url === undefined || !/^https?:\/\//.test(url)) {
  console.error('usage: main.js <server url>');
  process.exit(2);
}
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
const stateless = process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] === '2026-07-28';
const context = parseContext(process.env['MCP_CONFORMANCE_CONTEXT']);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

const handlers: Handlers = {
  // Accept, with every field the schema gives a default for filled in (SEP-1034), and a plain
  // value of the right type for the others.
  elicitation: (params) => {
    const schema = 'requestedSchema' in params ? (params.requestedSchema as Json) : {};
    const content: { [key: string]: string | number | boolean | string[] } = {};
    const properties = (schema['properties'] ?? {}) as { [key: string]: Json };
    for (const [name, property] of Object.entries(properties)) {
      const value = property['default'] ?? sampleValue(property);
      if (value !== undefined) content[name] = value as string | number | boolean | string[];
    }
    return { action: 'accept', content };
  },
  sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'conformance sample' }, model: 'none', stopReason: 'endTurn' }),
  roots: () => ({ roots: [{ uri: 'file:///conformance', name: 'conformance' }] }),
};

const auth = authFor(scenario, context as Json);
const client = await connect({
  url,
  ...(auth === undefined ? {} : { auth }),
  clientInfo: { name: 'mcp-gen-conformance-client', version: '1.0.0' },
  protocolVersions: stateless ? ['2026-07-28'] : ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
  handlers,
  onNotification: () => {},
});
try {
  switch (scenario) {
    case 'initialize':
      break;
    case 'tools_call':
      log((await client.tools.addNumbers({ a: 2, b: 3 })).content.map((c) => ('text' in c ? c.text : c.type)).join(' '));
      break;
    case 'elicitation-sep1034-client-defaults':
      await client.tools.testClientElicitationDefaults({});
      break;
    case 'sse-retry':
      await client.tools.testReconnection({});
      break;
    default:
      await exercise(client);
  }
} finally {
  await client.close();
}
process.exit(0);

/**
 * Scenarios whose tools are known only from the server: list what the server offers and use it.
 * Tools with invalid `x-mcp-header` annotations are left out; the context's tool calls are made
 * as given; otherwise each tool is called with arguments built from its inputSchema.
 */
async function exercise(client: Client): Promise<void> {
  const capabilities = client.server.capabilities;
  if (capabilities['tools'] !== undefined) {
    const tools = await client.listTools();
    const echo = tools.find((t) => t.name === 'json_schema_echo');
    for (const tool of tools) {
      const bound = bindListedTool(tool as unknown as Json);
      if ('problem' in bound) {
        log(`warning: left out: ${bound.problem}`);
        continue;
      }
      const planned = context.toolCalls?.filter((c) => c.name === tool.name);
      if (context.toolCalls !== undefined && planned?.length === 0) continue;
      const calls =
        planned ??
        (echo !== undefined && tool === echo
          ? tools.filter((t) => t !== echo).map((t) => ({ arguments: { schema: t.inputSchema } }))
          : [{ arguments: sampleArguments(tool.inputSchema as Json) }]);
      for (const call of calls) {
        await callTool(client.session, bound.binding, call.arguments ?? {}).then(
          () => log(`called ${tool.name}`),
          (error: Error) => log(`${tool.name}: ${error.message}`),
        );
      }
    }
  }
  if (capabilities['prompts'] !== undefined) {
    for (const prompt of await client.request('prompts/list', {}).then((r) => r.prompts)) {
      const args = Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, 'test']));
      await client.request('prompts/get', { name: prompt.name, arguments: args }).catch((error: Error) => log(error.message));
    }
  }
  if (capabilities['resources'] !== undefined) {
    for (const resource of await client.resources.list()) {
      await client.resources.read(resource.uri).catch((error: Error) => log(error.message));
    }
  }
}

function sampleArguments(schema: Json): Json {
  const properties = (schema['properties'] ?? {}) as { [key: string]: Json };
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
  const args: Json = {};
  for (const name of required) args[name] = properties[name]?.['default'] ?? sampleValue(properties[name] ?? {});
  return args;
}

function sampleValue(schema: Json): unknown {
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  switch (schema['type']) {
    case 'string':
      return 'test';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return undefined;
  }
}

function parseContext(text: string | undefined): { toolCalls?: { name: string; arguments?: Json }[] } {
  if (text === undefined) return {};
  try {
    return JSON.parse(text) as { toolCalls?: { name: string; arguments?: Json }[] };
  } catch {
    return {};
  }
}
