import type { ToolHandlers } from '../../generated/types.js';

/** test_sampling: asks the client's model, answers with what it said. */
export const testSampling: ToolHandlers['test_sampling'] = async (input, context) => {
  const answer = await context.sample({
    messages: [{ role: 'user', content: { type: 'text', text: input.prompt } }],
    maxTokens: 100,
  });
  const content = answer['content'] as { type?: string; text?: string } | undefined;
  const text = content?.type === 'text' ? content.text : JSON.stringify(content);
  return { content: [{ type: 'text', text: `LLM response: ${text}` }] };
};
