import type { ToolHandlers } from '../../generated/types.js';
import { dateAfter, reading, toUnits } from '../data.js';

/**
 * The tool "get_forecast".
 *
 * Forecast
 *
 * Daily highs, lows and conditions for the next days.
 */
export const getForecast: ToolHandlers['get_forecast'] = async (input, context) => {
  const units = input.units ?? 'celsius';
  const count = input.days ?? 3;
  const days = [];
  for (let day = 1; day <= count; day++) {
    if (context.signal.aborted) break;
    const { celsius, conditions } = reading(input.location, day);
    days.push({
      date: dateAfter(day),
      high: toUnits(celsius + 4, units),
      low: toUnits(celsius - 4, units),
      conditions,
    });
    await context.progress(day, count, `day ${day} of ${count}`);
  }
  const summary = days.map((d) => `${d.date}: ${d.conditions}, ${d.low}–${d.high}°`).join('\n');
  return {
    structuredContent: { location: input.location, units, days },
    content: [{ type: 'text', text: `Forecast for ${input.location}\n${summary}` }],
  };
};
