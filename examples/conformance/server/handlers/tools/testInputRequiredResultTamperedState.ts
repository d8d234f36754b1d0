import type { ToolHandlers } from '../../generated/types.js';

/** Asks for input; the runtime signs the request state, so a state altered by the client is refused. */
export const testInputRequiredResultTamperedState: ToolHandlers['test_input_required_result_tampered_state'] = async (_input, context) => {
  const answer = await context.elicit(
    { message: 'Please confirm', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
    { key: 'confirm' },
  );
  return { content: [{ type: 'text', text: `confirmed=${String(answer.content?.['ok'])}` }] };
};
