import type { ToolHandlers } from '../../generated/types.js';

const CONDITIONS = [
  'Sunny',
  'Partly cloudy',
  'Overcast',
  'Light rain',
  'Thunderstorms',
  'Fog',
  'Snow',
];

/**
 * The tool "get_weather".
 *
 * Get current weather for a location
 */
export const getWeather: ToolHandlers['get_weather'] = async ({ location, units }) => {
  // The benchmark workload's formulas; `content` is left to the runtime (one text block of the JSON).
  let celsius = 12 + (location.length % 17) + 0.5;
  if (units === 'fahrenheit') celsius = (celsius * 9) / 5 + 32;
  return {
    structuredContent: {
      temperature: celsius,
      conditions: CONDITIONS[location.length % 7]!,
      humidity: 40 + (location.charCodeAt(0) % 50),
    },
  };
};
