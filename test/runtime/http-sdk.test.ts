import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer, type HttpListener } from '../../src/runtime/index.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';
import { CLIENT_CAPABILITIES, defineSdkSuite, prepareClient, type SdkTarget } from './sdk-suite.js';
import { listen } from '../transports/adapters.js';

let listener: HttpListener;
let client: Client;
let transport: StreamableHTTPClientTransport;
const serverLog: string[] = [];
const target: SdkTarget = { client: () => client, logs: [] };

beforeAll(async () => {
  listener = await listen(createServer(buildDefinition(3), handlers, { logger: (line) => serverLog.push(line) }));
  transport = new StreamableHTTPClientTransport(new URL(listener.url));
  client = new Client({ name: 'runtime-test', version: '1.0.0' }, { capabilities: CLIENT_CAPABILITIES });
  prepareClient(client, target.logs);
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await listener?.close();
});

describe('Streamable HTTP server driven by the official SDK client', () => {
  defineSdkSuite(target);

  it('issued a session id at initialize and logs refused output to the server logger', () => {
    // 128 random bits, base64url: visible ASCII only.
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(serverLog.some((line) => line.includes('/temperature must be number'))).toBe(true);
  });

  it('ends the session on DELETE', async () => {
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
  });
});
