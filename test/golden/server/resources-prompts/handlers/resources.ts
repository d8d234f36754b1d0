import type { ResourceHandlers } from '../generated/types.js';

/** Reads each resource of the manifest, keyed by URI. */
export const resources: ResourceHandlers = {
  /** Table of contents */
  'docs://index': async (_uri, _context) => {
    throw new Error('resource docs://index is not implemented yet: edit handlers/resources.ts');
  },
};
