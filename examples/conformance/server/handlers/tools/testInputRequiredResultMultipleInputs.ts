import type { ToolHandlers } from '../../generated/types.js';

/** Asks for an elicitation, a sampling and the roots at once: one input-required result with all three. */
export const testInputRequiredResultMultipleInputs: ToolHandlers['test_input_required_result_multiple_inputs'] = async (_input, context) => {
  const [user, model, roots] = await Promise.all([
    context.elicit(
      { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      { key: 'user_name' },
    ),
    context.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: 'Say something nice.' } }], maxTokens: 50 },
      { key: 'compliment' },
    ),
    context.listRoots({ key: 'client_roots' }),
  ]);
  return {
    content: [
      {
        type: 'text',
        text: `name=${String(user.content?.['name'])}; model=${JSON.stringify(model['content'])}; roots=${roots.roots.length}`,
      },
    ],
  };
};
