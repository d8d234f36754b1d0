import type { ToolHandlers } from '../../generated/types.js';

/** test_elicitation_sep1034_defaults: five fields, each with a default. */
export const testElicitationSep1034Defaults: ToolHandlers['test_elicitation_sep1034_defaults'] = async (_input, context) => {
  const answer = await context.elicit({
    message: 'Please review and update the form fields with defaults',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
      required: [],
    },
  });
  return {
    content: [{ type: 'text', text: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` }],
  };
};
