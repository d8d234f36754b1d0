import type { ToolHandlers } from '../../generated/types.js';

/** Asks for a confirmation (in a task: through its inputRequests), then reports. */
export const confirmDelete: ToolHandlers['confirm_delete'] = async (input, context) => {
  const answer = await context.elicit({
    message: `Delete ${input.filename ?? 'the file'}?`,
    requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
  });
  const confirmed = answer.action === 'accept' && answer.content?.['confirm'] === true;
  return { content: [{ type: 'text', text: confirmed ? `Deleted ${input.filename ?? 'the file'}` : 'Nothing deleted' }] };
};
