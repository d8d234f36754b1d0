import type { ResourceListHandlers } from '../generated/types.js';

/**
 * The resources each `list: true` template has now, keyed by template: called on every
 * resources/list (the runtime pages the result), each resource read through its template's handler.
 * Call `context.notify.resourcesChanged()` (or `server.notify`) when the set changes.
 */
export const resourceLists: ResourceListHandlers = {
  /**
   * One weather station
   *
   * A station's details, by id.
   */
  'weather://stations/{id}': async (_context) => {
    return [];
  },
};
