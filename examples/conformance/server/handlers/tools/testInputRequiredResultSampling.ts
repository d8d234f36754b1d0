import type { ToolHandlers } from '../../generated/types.js';

/** Asks the client's model a question (input key `capital_question`). */
export const testInputRequiredResultSampling: ToolHandlers['test_input_required_result_sampling'] = async (_input, context) => {
  const answer = await context.sample(
    { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 },
    { key: 'capital_question' },
  );
  return { content: [{ type: 'text', text: `The model answered: ${JSON.stringify(answer['content'])}` }] };
};
