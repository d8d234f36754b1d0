// The official SDK's server for the workload: McpServer + StdioServerTransport, the tools declared
// with zod schemas equivalent to workload.tools.json, as an SDK user would write them.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createWorkloadServer } from './tools.mjs';

await createWorkloadServer().connect(new StdioServerTransport());
