import type { ToolHandlers } from '../../generated/types.js';
import { sleep } from './sleep.js';

/** Asks for the name on the request itself (beforeTask), then works as a task and greets. */
export const testToolWithTask: ToolHandlers['test_tool_with_task'] = async (_input, context) => {
  const answer = await context.elicit(
    { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    { key: 'user_name', beforeTask: true },
  );
  await sleep(500, context.signal);
  return { content: [{ type: 'text', text: `Hello, ${String(answer.content?.['name'] ?? 'stranger')}!` }] };
};
