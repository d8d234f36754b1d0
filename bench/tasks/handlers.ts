// The handlers of the task benchmark's server (bench/tasks/manifest.yaml); bench/tasks.mjs copies
// this file over handlers/index.ts of the server it generates.
import type { Handlers } from '../generated/types.js';

const CONDITIONS = ['Sunny', 'Partly cloudy', 'Overcast', 'Light rain', 'Thunderstorms', 'Fog', 'Snow'];

export const handlers: Handlers = {
  tools: {
    // The bench workload's formulas, after a 2 ms wait (the same for a plain call and a task).
    get_weather: async ({ location, units }) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      let celsius = 12 + (location.length % 17) + 0.5;
      if (units === 'fahrenheit') celsius = (celsius * 9) / 5 + 32;
      return {
        structuredContent: {
          temperature: celsius,
          conditions: CONDITIONS[location.length % 7]!,
          humidity: 40 + (location.charCodeAt(0) % 50),
        },
      };
    },
  },
};
