import type { ToolHandlers } from '../../generated/types.js';

/** The tool "greet": `structuredContent` for its view, `content` for the model (and hosts without views). */
export const greet: ToolHandlers['greet'] = async (input) => {
  const greeting = `Hello, ${input.name}!`;
  return { structuredContent: { greeting }, content: [{ type: 'text', text: greeting }] };
};
