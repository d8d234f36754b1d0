import { describe, expect, it } from 'vitest';
import { listAll, openSession } from '../../src/runtime/client/index.js';

const everything = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';

describe('smoke', () => {
  it('stdio everything', async () => {
    const session = await openSession({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' });
    console.log(session.server.protocolVersion, JSON.stringify(session.server.serverInfo));
    const tools = await listAll(session, 'tools/list', 'tools');
    console.log(tools.map((t) => t['name']).join(' '));
    const r = await session.request('tools/call', { name: 'echo', arguments: { message: 'hi' } });
    console.log(JSON.stringify(r));
    await session.close();
    expect(tools.length).toBeGreaterThan(3);
  }, 30000);
});
