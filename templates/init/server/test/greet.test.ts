/**
 * Calls the server through the typed client generated from the same manifest (`client/`), over
 * stdio, the way an MCP host would. Run with `npm test` (it builds first).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { connect } from '../client/client.js';

/** build/test/greet.test.js → build/main.js */
const serverMain = fileURLToPath(new URL('../main.js', import.meta.url));

test('greet answers with a greeting', async () => {
  const client = await connect({ command: process.execPath, args: [serverMain], stderr: 'ignore' });
  try {
    const output = await client.tools.greet({ name: 'Ada' });
    assert.equal(output.greeting, 'Hello, Ada!');
  } finally {
    await client.close();
  }
});
