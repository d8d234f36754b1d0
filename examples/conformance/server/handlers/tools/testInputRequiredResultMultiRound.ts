import type { ToolHandlers } from '../../generated/types.js';

/** Asks two questions one after the other: two input-required rounds, then the result. */
export const testInputRequiredResultMultiRound: ToolHandlers['test_input_required_result_multi_round'] = async (_input, context) => {
  const first = await context.elicit(
    { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    { key: 'round_1' },
  );
  const second = await context.elicit(
    { message: 'Where do you live?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    { key: 'round_2' },
  );
  return {
    content: [{ type: 'text', text: `round 1: ${JSON.stringify(first.content ?? {})}; round 2: ${JSON.stringify(second.content ?? {})}` }],
  };
};
