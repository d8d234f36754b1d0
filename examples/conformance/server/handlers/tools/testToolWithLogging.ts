import type { ToolHandlers } from '../../generated/types.js';
import { sleep } from '../data.js';

/** test_tool_with_logging: three info logs, 50 ms apart, before the result. */
export const testToolWithLogging: ToolHandlers['test_tool_with_logging'] = async (_input, context) => {
  await context.log('info', 'Tool execution started');
  await sleep(50);
  await context.log('info', 'Tool processing data');
  await sleep(50);
  await context.log('info', 'Tool execution completed');
  return { content: [{ type: 'text', text: 'Logging test completed' }] };
};
