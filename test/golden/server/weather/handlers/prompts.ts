import type { PromptHandlers } from '../generated/types.js';

/** Builds each prompt of the manifest from its arguments, keyed by prompt name. */
export const prompts: PromptHandlers = {
  /**
   * Plan an outing
   *
   * Asks the model to plan an outdoor activity around the forecast.
   */
  plan_outing: async (_args, _context) => {
    throw new Error('prompt plan_outing is not implemented yet: edit handlers/prompts.ts');
  },
};
