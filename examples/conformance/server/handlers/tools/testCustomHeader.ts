import type { ToolHandlers } from '../../generated/types.js';

/** test_custom_header: the runtime has checked Mcp-Param-Region against `region` before this runs. */
export const testCustomHeader: ToolHandlers['test_custom_header'] = (input) => ({
  content: [{ type: 'text', text: `Region: ${input.region}` }],
});
