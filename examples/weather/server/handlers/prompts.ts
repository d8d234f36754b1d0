import type { PromptHandlers } from '../generated/types.js';

/** Builds each prompt of the manifest from its arguments, keyed by prompt name. */
export const prompts: PromptHandlers = {
  /**
   * Plan an outing
   *
   * Asks the model to plan an outdoor activity around the forecast.
   */
  plan_outing: async (args) => {
    const activity = args.activity ?? 'a walk';
    return {
      description: `Plan ${activity} in ${args.location}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Use get_forecast for ${args.location} and suggest the best day for ${activity} in the next three days.`,
          },
        },
      ],
    };
  },
};
