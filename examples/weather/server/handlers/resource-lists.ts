import type { ResourceListHandlers } from '../generated/types.js';
import { STATIONS } from './data.js';

/**
 * The resources each `list: true` template has now, keyed by template: called on every
 * resources/list (the runtime pages the result), each resource read through its template's handler.
 * Call `context.notify.resourcesChanged()` (or `server.notify`) when the set changes.
 */
export const resourceLists: ResourceListHandlers = {
  /** Every station, as `weather://stations/<id>`: what `weather://stations/{id}` reads. */
  'weather://stations/{id}': () =>
    STATIONS.map((station) => ({
      uri: `weather://stations/${station.id}`,
      name: `station-${station.id}`,
      title: `${station.name} weather station`,
      mimeType: 'application/json',
    })),
};
