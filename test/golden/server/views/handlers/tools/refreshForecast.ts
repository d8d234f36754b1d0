import type { ToolHandlers } from '../../generated/types.js';

/**
 * The tool "refresh_forecast".
 *
 * Fetches fresh temperatures for the view
 */
export const refreshForecast: ToolHandlers['refresh_forecast'] = async (_input, _context) => {
  // `input` was validated against the tool's inputSchema. `context.signal` tells when the client
  // cancels; `context.progress` and `context.log` send notifications. (Unused parameters start
  // with `_` so the stub compiles under noUnusedParameters: rename them as you use them.)
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: 'refresh_forecast is not implemented yet: edit handlers/tools/refreshForecast.ts',
      },
    ],
  };
};
