import type { ToolHandlers } from '../../generated/types.js';

/**
 * The tool "get_forecast".
 *
 * Forecast
 *
 * Daily highs, lows and conditions for the next days.
 */
export const getForecast: ToolHandlers['get_forecast'] = async (input, context) => {
  // `input` was validated against the tool's inputSchema. `context.signal` tells when the client
  // cancels; `context.progress` and `context.log` send notifications.
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: 'get_forecast is not implemented yet: edit handlers/tools/getForecast.ts',
      },
    ],
  };
};
