import type { PromptHandlers } from '../generated/types.js';
import { PNG_1X1 } from './data.js';

/** Builds each prompt of the manifest from its arguments, keyed by prompt name. */
export const prompts: PromptHandlers = {
  test_simple_prompt: () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }),
  test_prompt_with_arguments: (args) => ({
    messages: [
      { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } },
    ],
  }),
  test_prompt_with_embedded_resource: (args) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }),
  test_prompt_with_image: () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG_1X1, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }),
  /** Asks the user for context first (input key `user_context`). */
  test_input_required_result_prompt: async (_args, context) => {
    const answer = await context.elicit(
      {
        message: 'What context should the prompt use?',
        requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
      },
      { key: 'user_context' },
    );
    return {
      messages: [{ role: 'user', content: { type: 'text', text: `Context: ${String(answer.content?.['context'] ?? '')}` } }],
    };
  },
};
