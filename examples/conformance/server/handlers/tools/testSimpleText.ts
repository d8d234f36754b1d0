import type { ToolHandlers } from '../../generated/types.js';

/** test_simple_text: one text block. */
export const testSimpleText: ToolHandlers['test_simple_text'] = () => ({
  content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
});
