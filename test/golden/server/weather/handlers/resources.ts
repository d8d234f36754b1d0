import type { ResourceHandlers } from '../generated/types.js';

/** Reads each resource of the manifest, keyed by URI. */
export const resources: ResourceHandlers = {
  /**
   * Weather stations
   *
   * Every station the server has data for, as JSON.
   */
  'weather://stations': async (_uri, _context) => {
    throw new Error(
      'resource weather://stations is not implemented yet: edit handlers/resources.ts',
    );
  },
};
