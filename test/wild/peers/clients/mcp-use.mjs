// mcp-use's client. mcp-use 2.x serves only (its client package is not on npm), so the client is
// mcp-use 1.x's MCPClient (installed as mcp-use-1): a session per server, calls on the session.
import { MCPClient } from 'mcp-use-1/client';

export default {
  async connect(transport, target) {
    const server = transport === 'stdio' ? { command: target.command, args: target.args } : { url: target.url, preferSse: transport === 'sse', disableSseFallback: transport === 'http' };
    const client = MCPClient.fromDict({ mcpServers: { wild: server } });
    const session = await client.createSession('wild');
    return {
      listTools: async () => (await session.connector.listTools?.() ?? session.connector.tools).map((tool) => tool.name),
      call: (name, args, options = {}) => session.callTool(name, args, { signal: options.signal }),
      close: () => client.closeAllSessions(),
    };
  },
};
