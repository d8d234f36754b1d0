import type { ResourceTemplateHandlers } from '../generated/types.js';

/** Reads resources by URI template, keyed by template; `variables` holds the matched placeholders. */
export const resourceTemplates: ResourceTemplateHandlers = {
  'test://template/{id}/data': (uri, variables) => ({
    contents: [
      {
        uri,
        mimeType: 'application/json',
        text: JSON.stringify({ id: variables.id, templateTest: true, data: `Data for ID: ${variables.id}` }),
      },
    ],
  }),
};
