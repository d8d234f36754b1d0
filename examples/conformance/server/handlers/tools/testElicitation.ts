import type { ToolHandlers } from '../../generated/types.js';

/** test_elicitation: asks for a username and an email address. */
export const testElicitation: ToolHandlers['test_elicitation'] = async (input, context) => {
  const answer = await context.elicit({
    message: input.message,
    requestedSchema: {
      type: 'object',
      properties: {
        username: { type: 'string', description: "The user's name" },
        email: { type: 'string', description: "The user's email address" },
      },
      required: ['username', 'email'],
    },
  });
  return { content: [{ type: 'text', text: `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` }] };
};
