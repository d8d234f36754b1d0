import type { ResourceTemplateHandlers } from '../generated/types.js';

/** Reads resources by URI template, keyed by template; `variables` holds the matched placeholders. */
export const resourceTemplates: ResourceTemplateHandlers = {
  /** *\/ export const pwn = 9; /* */
  'x://items/{__proto__}/{id}': async (_uri, _variables, _context) => {
    throw new Error(
      'resource template x://items/{__proto__}/{id} is not implemented yet: edit handlers/resource-templates.ts',
    );
  },
};
