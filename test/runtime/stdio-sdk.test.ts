import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { transpileRuntimeTree, type TranspiledTree } from './transpile.js';

let tree: TranspiledTree;
let client: Client;
let stderr = '';

beforeAll(async () => {
  tree = transpileRuntimeTree();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [tree.path('test/runtime/fixtures/stdio-main.js')],
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'runtime-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  tree?.remove();
});

describe('stdio server driven by the official SDK client', () => {
  it('negotiates the newest revision and reports the server identity', () => {
    expect(client.getServerVersion()).toEqual({ name: 'runtime-demo', version: '1.0.0' });
    expect(client.getInstructions()).toBe('A server for runtime tests');
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {} });
  });

  it('calls a tool with structured output', async () => {
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Paris' } });
    expect(result.structuredContent).toEqual({ temperature: 22, conditions: 'sunny in Paris' });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    expect(result.isError).toBeUndefined();
  });
});
