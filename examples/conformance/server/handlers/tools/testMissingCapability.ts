import type { ToolHandlers } from '../../generated/types.js';

/**
 * test_missing_capability: needs sampling. A client that did not declare it gets the runtime's
 * refusal: -32021 in 2026-07-28, a tool error in the stateful revisions.
 */
export const testMissingCapability: ToolHandlers['test_missing_capability'] = async (_input, context) => {
  const answer = await context.sample({
    messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
    maxTokens: 20,
  });
  return { content: [{ type: 'text', text: `The model said: ${JSON.stringify(answer['content'])}` }] };
};
