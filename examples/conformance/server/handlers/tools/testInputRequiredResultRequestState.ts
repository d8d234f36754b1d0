import type { ToolHandlers } from '../../generated/types.js';

/** Asks for a confirmation (input key `confirm`); the runtime carries it in a signed request state. */
export const testInputRequiredResultRequestState: ToolHandlers['test_input_required_result_request_state'] = async (_input, context) => {
  const answer = await context.elicit(
    {
      message: 'Please confirm',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    },
    { key: 'confirm' },
  );
  return { content: [{ type: 'text', text: `state-ok: confirmed=${String(answer.content?.['ok'])}` }] };
};
