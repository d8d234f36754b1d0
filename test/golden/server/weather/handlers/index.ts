import type { Handlers } from '../generated/types.js';
import { getWeather } from './tools/getWeather.js';
import { getForecast } from './tools/getForecast.js';
import { climateReport } from './tools/climateReport.js';
import { resources } from './resources.js';
import { resourceTemplates } from './resource-templates.js';
import { resourceLists } from './resource-lists.js';
import { prompts } from './prompts.js';

/**
 * Every handler of the server, checked against the generated `Handlers` type. Regenerating adds
 * new tools here; a tool removed from the manifest shows up as a type error until you remove it.
 */
export const handlers: Handlers = {
  tools: {
    get_weather: getWeather,
    get_forecast: getForecast,
    climate_report: climateReport,
  },
  resources,
  resourceTemplates,
  resourceLists,
  prompts,
};
