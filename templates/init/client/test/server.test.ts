/**
 * Connects to the server this client was generated from and checks that it still offers what the
 * client was generated for. Needs the server running: `MCP_SERVER_URL` overrides the URL.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect } from '../client/client.js';

const url = process.env['MCP_SERVER_URL'] ?? __URL__;

test('the server lists its tools', async () => {
  const client = await connect({ url });
  try {
    const tools = await client.listTools();
    assert.ok(Array.isArray(tools));
  } finally {
    await client.close();
  }
});
