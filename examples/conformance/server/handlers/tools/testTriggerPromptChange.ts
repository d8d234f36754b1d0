import type { ToolHandlers } from '../../generated/types.js';

/** test_trigger_prompt_change: announces that the prompt list changed. */
export const testTriggerPromptChange: ToolHandlers['test_trigger_prompt_change'] = (_input, context) => {
  context.notify.promptsChanged();
  return { content: [{ type: 'text', text: 'Announced a prompt list change' }] };
};
