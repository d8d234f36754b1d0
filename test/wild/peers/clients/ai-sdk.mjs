// The Vercel AI SDK's MCP client (@ai-sdk/mcp): stdio through its Experimental_StdioMCPTransport,
// Streamable HTTP and the legacy SSE transport through its own transport configs.
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';

export default {
  // It drops the call on abort without telling the server (no notifications/cancelled): over
  // Streamable HTTP the aborted POST is what the server sees; over stdio and legacy SSE nothing is.
  cannotCancel: (transport) => (transport === 'stdio' || transport === 'sse' ? `it sends no notifications/cancelled over ${transport}` : undefined),
  async connect(transport, target, revision) {
    const client = await createMCPClient({
      protocolVersionDiscovery: revision !== '2025-11-25',
      transport: transport === 'stdio' ? new Experimental_StdioMCPTransport({ command: target.command, args: target.args, stderr: 'ignore' }) : { type: transport, url: target.url },
    });
    return {
      listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: (name, args, options = {}) => client.callTool({ name, arguments: args, options: { signal: options.signal } }),
      close: () => client.close(),
    };
  },
};
