import type { ToolHandlers } from '../../generated/types.js';

/** Asks the client for its roots (input key `client_roots`). */
export const testInputRequiredResultListRoots: ToolHandlers['test_input_required_result_list_roots'] = async (_input, context) => {
  const { roots } = await context.listRoots({ key: 'client_roots' });
  return { content: [{ type: 'text', text: `Roots: ${roots.map((r) => r.uri).join(', ')}` }] };
};
