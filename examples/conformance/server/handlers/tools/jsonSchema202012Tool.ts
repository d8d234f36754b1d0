import type { ToolHandlers } from '../../generated/types.js';

/** json_schema_2020_12_tool: echoes the validated arguments. */
export const jsonSchema202012Tool: ToolHandlers['json_schema_2020_12_tool'] = (input) => ({
  content: [{ type: 'text', text: `Received: ${JSON.stringify(input)}` }],
});
