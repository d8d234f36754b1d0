import type { ResourceHandlers } from '../generated/types.js';
import { STATIONS } from './data.js';

/** Reads each resource of the manifest, keyed by URI. */
export const resources: ResourceHandlers = {
  /**
   * Weather stations
   *
   * Every station the server has data for, as JSON.
   */
  'weather://stations': async (uri) => ({
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(STATIONS) }],
  }),
};
