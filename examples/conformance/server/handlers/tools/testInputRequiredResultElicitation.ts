import type { ToolHandlers } from '../../generated/types.js';

/** Asks for the user's name (input key `user_name`), then greets them. */
export const testInputRequiredResultElicitation: ToolHandlers['test_input_required_result_elicitation'] = async (_input, context) => {
  const answer = await context.elicit(
    {
      message: 'What is your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
    { key: 'user_name' },
  );
  return { content: [{ type: 'text', text: `Hello, ${String(answer.content?.['name'] ?? 'stranger')}!` }] };
};
