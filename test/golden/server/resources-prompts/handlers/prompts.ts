import type { PromptHandlers } from '../generated/types.js';

/** Builds each prompt of the manifest from its arguments, keyed by prompt name. */
export const prompts: PromptHandlers = {
  /** Summarize a page. */
  summarize: async (_args, _context) => {
    throw new Error('prompt summarize is not implemented yet: edit handlers/prompts.ts');
  },
  /** A prompt without arguments. */
  overview: async (_args, _context) => {
    throw new Error('prompt overview is not implemented yet: edit handlers/prompts.ts');
  },
};
