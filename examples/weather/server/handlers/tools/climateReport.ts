import type { ToolHandlers } from '../../generated/types.js';
import { reading } from '../data.js';

/**
 * The tool "climate_report".
 *
 * Climate report
 *
 * Averages many years of readings for a location; slow, so it runs as a task when the client can.
 * Written like any handler: the runtime runs it as a task when the client asks (2025-11-25) or
 * declares the tasks extension (2026-07-28), and a cancelled task aborts `context.signal`.
 */
export const climateReport: ToolHandlers['climate_report'] = async (input, context) => {
  const years = input.years ?? 10;
  let total = 0;
  for (let year = 0; year < years; year++) {
    // One "year" of archive reading: a short pause, cut short by cancellation.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, 20);
      context.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('climate_report cancelled'))), { once: true });
    });
    total += reading(input.location, year * 365).celsius;
  }
  const averageCelsius = Math.round((total / years) * 10) / 10;
  return { structuredContent: { location: input.location, years, averageCelsius } };
};
