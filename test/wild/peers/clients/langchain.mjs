// LangChain's MCP adapters (@langchain/mcp-adapters): a MultiServerMCPClient with one server; calls
// go through the LangChain tools it makes, as an agent would invoke them.
import { MultiServerMCPClient } from '@langchain/mcp-adapters';

export default {
  async connect(transport, target) {
    const connection = transport === 'stdio' ? { transport: 'stdio', command: target.command, args: target.args, stderr: 'ignore' } : { transport, url: target.url, reconnect: { enabled: false } };
    const client = new MultiServerMCPClient({ mcpServers: { wild: connection }, throwOnLoadError: true, prefixToolNameWithServerName: false });
    const tools = await client.getTools();
    const byName = new Map(tools.map((tool) => [tool.name.replace(/^.*__/, ''), tool]));
    return {
      listTools: async () => (await client.getTools()).map((tool) => tool.name.replace(/^.*__/, '')),
      call: async (name, args, options = {}) => {
        const tool = byName.get(name);
        if (tool === undefined) throw new Error(`no tool ${name}`);
        return tool.invoke(args, { signal: options.signal });
      },
      close: () => client.close(),
    };
  },
};
