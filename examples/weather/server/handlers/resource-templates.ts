import { McpError } from '../generated/runtime/index.js';
import type { ResourceTemplateHandlers } from '../generated/types.js';
import { STATIONS } from './data.js';

/** The JSON-RPC code the MCP spec gives an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

/** Reads resources by URI template, keyed by template; `variables` holds the matched placeholders. */
export const resourceTemplates: ResourceTemplateHandlers = {
  /**
   * One weather station
   *
   * A station's details, by id.
   */
  'weather://stations/{id}': async (uri, variables) => {
    const station = STATIONS.find((s) => s.id === variables.id);
    if (!station) throw new McpError(RESOURCE_NOT_FOUND, `no station ${variables.id}`, { uri });
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(station) }] };
  },
};
