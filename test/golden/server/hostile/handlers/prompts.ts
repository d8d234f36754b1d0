import type { PromptHandlers } from '../generated/types.js';

/** Builds each prompt of the manifest from its arguments, keyed by prompt name. */
export const prompts: PromptHandlers = {
  /** *\/ export const pwn = 10; /* */
  'say "hi" */ ${x}': async (_args, _context) => {
    throw new Error('prompt say "hi" */ ${x} is not implemented yet: edit handlers/prompts.ts');
  },
};
