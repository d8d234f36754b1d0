import type { ResourceTemplateHandlers } from '../generated/types.js';

/** Reads resources by URI template, keyed by template; `variables` holds the matched placeholders. */
export const resourceTemplates: ResourceTemplateHandlers = {
  /**
   * One weather station
   *
   * A station's details, by id.
   */
  'weather://stations/{id}': async (_uri, _variables, _context) => {
    throw new Error(
      'resource template weather://stations/{id} is not implemented yet: edit handlers/resource-templates.ts',
    );
  },
};
