// The OpenAI Agents SDK's MCP server classes (@openai/agents), used directly: no model is called.
import { MCPServerSSE, MCPServerStdio, MCPServerStreamableHttp } from '@openai/agents';

export default {
  async connect(transport, target) {
    const server =
      transport === 'stdio'
        ? new MCPServerStdio({ name: 'wild', command: target.command, args: target.args })
        : transport === 'http'
          ? new MCPServerStreamableHttp({ name: 'wild', url: target.url })
          : new MCPServerSSE({ name: 'wild', url: target.url });
    await server.connect();
    return {
      listTools: async () => (await server.listTools()).map((tool) => tool.name),
      call: (name, args, options = {}) => server.callToolResult(name, args, null, { signal: options.signal }),
      close: () => server.close(),
    };
  },
};
