import type { ResourceTemplateHandlers } from '../generated/types.js';

/** Reads resources by URI template, keyed by template; `variables` holds the matched placeholders. */
export const resourceTemplates: ResourceTemplateHandlers = {
  /** One page of the documentation. */
  'docs://pages/{section}/{page}': async (_uri, _variables, _context) => {
    throw new Error(
      'resource template docs://pages/{section}/{page} is not implemented yet: edit handlers/resource-templates.ts',
    );
  },
};
