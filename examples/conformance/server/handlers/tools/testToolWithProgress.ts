import type { ToolHandlers } from '../../generated/types.js';
import { sleep } from '../data.js';

/** test_tool_with_progress: progress 0, 50 and 100 of 100, 50 ms apart (nothing without a token). */
export const testToolWithProgress: ToolHandlers['test_tool_with_progress'] = async (_input, context) => {
  await context.progress(0, 100, 'Starting');
  await sleep(50);
  await context.progress(50, 100, 'Halfway');
  await sleep(50);
  await context.progress(100, 100, 'Done');
  return { content: [{ type: 'text', text: 'Progress test completed' }] };
};
