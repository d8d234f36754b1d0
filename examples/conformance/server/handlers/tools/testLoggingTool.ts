import type { ToolHandlers } from '../../generated/types.js';

/** test_logging_tool: logs; only clients that asked for logs (setLevel, or logLevel in _meta) get them. */
export const testLoggingTool: ToolHandlers['test_logging_tool'] = async (_input, context) => {
  await context.log('info', 'test_logging_tool ran');
  return { content: [{ type: 'text', text: 'Logged one message' }] };
};
