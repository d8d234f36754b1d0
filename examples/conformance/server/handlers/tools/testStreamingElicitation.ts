import type { ToolHandlers } from '../../generated/types.js';

/** test_streaming_elicitation: asks a question while the call is open (an input-required result in 2026-07-28). */
export const testStreamingElicitation: ToolHandlers['test_streaming_elicitation'] = async (_input, context) => {
  await context.progress(0, 1);
  const answer = await context.elicit(
    {
      message: 'What is your favourite colour?',
      requestedSchema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] },
    },
    { key: 'colour' },
  );
  return { content: [{ type: 'text', text: `Favourite colour: ${String(answer.content?.['colour'])}` }] };
};
