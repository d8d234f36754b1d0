import type { Handlers } from '../generated/types.js';
import { resources } from './resources.js';
import { resourceTemplates } from './resource-templates.js';
import { resourceLists } from './resource-lists.js';
import { prompts } from './prompts.js';

/**
 * Every handler of the server, checked against the generated `Handlers` type. A tool's module is
 * imported on the tool's first call, so the server starts without loading any of them (a module
 * that fails to load makes that tool's calls fail with the reason). Regenerating adds new tools
 * here; a tool removed from the manifest shows up as a type error until you remove it.
 */
export const handlers: Handlers = {
  tools: {
    get_weather: (input, context) =>
      import('./tools/getWeather.js').then((m) => m.getWeather(input, context)),
    get_forecast: (input, context) =>
      import('./tools/getForecast.js').then((m) => m.getForecast(input, context)),
    climate_report: (input, context) =>
      import('./tools/climateReport.js').then((m) => m.climateReport(input, context)),
  },
  resources,
  resourceTemplates,
  resourceLists,
  prompts,
};
