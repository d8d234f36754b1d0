// Mastra's MCP client (@mastra/mcp): MCPClient with one server; tools are called through the
// Mastra tools it lists, as an agent would call them.
import { MCPClient } from '@mastra/mcp';

let count = 0;

export default {
  async connect(transport, target, revision) {
    const definition = transport === 'stdio' ? { command: target.command, args: target.args, stderr: 'ignore' } : { url: new URL(target.url) };
    if (revision !== undefined) definition.protocolVersion = revision;
    const mcp = new MCPClient({ id: `wild-${process.pid}-${count++}`, servers: { wild: definition }, timeout: 30_000 });
    const tools = await mcp.listTools();
    return {
      listTools: async () => Object.keys(await mcp.listTools()).map((name) => name.replace(/^wild_/, '')),
      call: async (name, args, options = {}) => {
        const tool = tools[`wild_${name}`];
        if (tool === undefined) throw new Error(`no tool wild_${name}`);
        const result = await tool.execute(args, { abortSignal: options.signal });
        // Mastra answers a tool error with an error object rather than throwing.
        if (result?.error === true || result instanceof Error) throw new Error(result.message ?? JSON.stringify(result));
        return result;
      },
      close: () => mcp.disconnect(),
    };
  },
};
