import { afterAll, beforeAll, describe } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLIENT_CAPABILITIES, defineSdkSuite, prepareClient, type SdkTarget } from './sdk-suite.js';
import { transpileRuntimeTree, type TranspiledTree } from './transpile.js';

let tree: TranspiledTree;
let client: Client;
const target: SdkTarget = { client: () => client, logs: [] };

beforeAll(async () => {
  tree = transpileRuntimeTree();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [tree.path('test/runtime/fixtures/stdio-main.js')],
    stderr: 'pipe',
  });
  client = new Client({ name: 'runtime-test', version: '1.0.0' }, { capabilities: CLIENT_CAPABILITIES });
  prepareClient(client, target.logs);
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  tree?.remove();
});

describe('stdio server driven by the official SDK client', () => {
  defineSdkSuite(target);
});
