import type { ToolHandlers } from '../../generated/types.js';

/**
 * The tool "climate_report".
 *
 * Climate report
 *
 * Averages many years of readings for a location; slow, so it runs as a task when the client can.
 */
export const climateReport: ToolHandlers['climate_report'] = async (_input, _context) => {
  // `input` was validated against the tool's inputSchema. `context.signal` tells when the client
  // cancels; `context.progress` and `context.log` send notifications. (Unused parameters start
  // with `_` so the stub compiles under noUnusedParameters: rename them as you use them.)
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: 'climate_report is not implemented yet: edit handlers/tools/climateReport.ts',
      },
    ],
  };
};
