import type { ToolHandlers } from '../../generated/types.js';

/** The tool "greet": the input is checked against its inputSchema before this runs, the output after. */
export const greet: ToolHandlers['greet'] = async (input) => {
  return { structuredContent: { greeting: `Hello, ${input.name}!` } };
};
