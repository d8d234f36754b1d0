import type { Handlers } from '../generated/types.js';

/**
 * Every handler of the server, checked against the generated `Handlers` type. A tool's module is
 * imported on the tool's first call, so the server starts without loading any of them (a module
 * that fails to load makes that tool's calls fail with the reason). Regenerating adds new tools
 * here; a tool removed from the manifest shows up as a type error until you remove it.
 */
export const handlers: Handlers = {
  tools: {
    show_forecast: (input, context) =>
      import('./tools/showForecast.js').then((m) => m.showForecast(input, context)),
    refresh_forecast: (input, context) =>
      import('./tools/refreshForecast.js').then((m) => m.refreshForecast(input, context)),
    get_time: (input, context) =>
      import('./tools/getTime.js').then((m) => m.getTime(input, context)),
  },
};
