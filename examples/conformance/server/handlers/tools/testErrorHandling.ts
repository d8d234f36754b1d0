import type { ToolHandlers } from '../../generated/types.js';

/** test_error_handling: a tool error (a result with isError), not a JSON-RPC error. */
export const testErrorHandling: ToolHandlers['test_error_handling'] = () => ({
  isError: true,
  content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
});
