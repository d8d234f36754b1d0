import type { ToolHandlers } from '../../generated/types.js';

/** Answers at once: a plain call in every era. */
export const greet: ToolHandlers['greet'] = (input) => ({ content: [{ type: 'text', text: `Hello, ${input.name ?? 'World'}!` }] });
