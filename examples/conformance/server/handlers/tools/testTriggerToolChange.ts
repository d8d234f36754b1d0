import type { ToolHandlers } from '../../generated/types.js';

/** test_trigger_tool_change: announces that the tool list changed. */
export const testTriggerToolChange: ToolHandlers['test_trigger_tool_change'] = (_input, context) => {
  context.notify.toolsChanged();
  return { content: [{ type: 'text', text: 'Announced a tool list change' }] };
};
