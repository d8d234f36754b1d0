// mcp-remote, driven as a desktop host drives it: the host (the official SDK 1.x client) spawns
// `mcp-remote <url>` and speaks stdio to it; mcp-remote bridges to the server's HTTP endpoint.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const proxy = createRequire(import.meta.url).resolve('mcp-remote/dist/proxy.js');
// Its OAuth state folder (~/.mcp-auth by default), kept in the run's temporary root.
const configDir = mkdtempSync(join(tmpdir(), 'mcp-remote-'));

export default {
  async connect(transport, target) {
    const args = [proxy, target.url, '--transport', transport === 'http' ? 'http-only' : 'sse-only', '--silent'];
    const client = new Client({ name: 'wild-desktop-host', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args, env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir }, stderr: 'ignore' }));
    return {
      listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: (name, args, options = {}) => client.callTool({ name, arguments: args }, undefined, { signal: options.signal }),
      close: () => client.close(),
    };
  },
};
