import type { ToolHandlers } from '../../generated/types.js';
import { sleep } from '../data.js';

/**
 * test_reconnection: ends its SSE response stream early (the client is told to reconnect after
 * 500 ms), then answers; the answer reaches the client on the stream it resumes with Last-Event-ID.
 */
export const testReconnection: ToolHandlers['test_reconnection'] = async (_input, context) => {
  await context.progress(0, 1, 'Closing the stream; reconnect to get the result');
  context.closeStream(500);
  await sleep(200);
  return { content: [{ type: 'text', text: 'Reconnection test completed: the result arrived on the resumed stream' }] };
};
