import type { ToolHandlers } from '../../generated/types.js';

/** test_elicitation_sep1330_enums: the five enum forms of SEP-1330. */
export const testElicitationSep1330Enums: ToolHandlers['test_elicitation_sep1330_enums'] = async (_input, context) => {
  const answer = await context.elicit({
    message: 'Please select options from the enum fields',
    requestedSchema: {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', description: 'Pick one', enum: ['option1', 'option2', 'option3'] },
        titledSingle: {
          type: 'string',
          description: 'Pick one (titled)',
          oneOf: [
            { const: 'value1', title: 'First Option' },
            { const: 'value2', title: 'Second Option' },
            { const: 'value3', title: 'Third Option' },
          ],
        },
        legacyEnum: {
          type: 'string',
          description: 'Pick one (legacy titles)',
          enum: ['opt1', 'opt2', 'opt3'],
          enumNames: ['Option One', 'Option Two', 'Option Three'],
        },
        untitledMulti: {
          type: 'array',
          description: 'Pick several',
          items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        },
        titledMulti: {
          type: 'array',
          description: 'Pick several (titled)',
          items: {
            anyOf: [
              { const: 'value1', title: 'First Choice' },
              { const: 'value2', title: 'Second Choice' },
              { const: 'value3', title: 'Third Choice' },
            ],
          },
        },
      },
      required: [],
    },
  });
  return {
    content: [{ type: 'text', text: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}` }],
  };
};
