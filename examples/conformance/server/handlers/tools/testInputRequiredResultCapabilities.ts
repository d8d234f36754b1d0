import type { ToolHandlers } from '../../generated/types.js';

/** Asks only for what the client can answer: elicitation when declared, otherwise sampling. */
export const testInputRequiredResultCapabilities: ToolHandlers['test_input_required_result_capabilities'] = async (_input, context) => {
  if (context.clientCapabilities['elicitation'] !== undefined) {
    const answer = await context.elicit(
      { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      { key: 'user_name' },
    );
    return { content: [{ type: 'text', text: `Elicited: ${JSON.stringify(answer.content ?? {})}` }] };
  }
  const answer = await context.sample(
    { messages: [{ role: 'user', content: { type: 'text', text: 'What is your name?' } }], maxTokens: 20 },
    { key: 'model_name' },
  );
  return { content: [{ type: 'text', text: `Sampled: ${JSON.stringify(answer['content'])}` }] };
};
