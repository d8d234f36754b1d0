import type { ToolHandlers } from '../../generated/types.js';

/** Two questions at once: both wait in the task's inputRequests until answered. */
export const multiInput: ToolHandlers['multi_input'] = async (_input, context) => {
  const ask = (message: string) =>
    context.elicit({ message, requestedSchema: { type: 'object', properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } } });
  const [first, second] = await Promise.all([ask('First question?'), ask('Second question?')]);
  return { content: [{ type: 'text', text: `Answers: ${String(first.content?.['name'])}, ${String(second.content?.['name'])}` }] };
};
