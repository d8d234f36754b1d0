import type { ToolHandlers } from '../../generated/types.js';
import { reading, toUnits } from '../data.js';

/**
 * The tool "get_weather".
 *
 * Current weather
 *
 * Current conditions at a location.
 */
export const getWeather: ToolHandlers['get_weather'] = async (input) => {
  const units = input.units ?? 'celsius';
  const now = reading(input.location, 0);
  return {
    structuredContent: {
      location: input.location,
      temperature: toUnits(now.celsius, units),
      units,
      conditions: now.conditions,
      humidity: now.humidity,
    },
  };
};
