import type { Handlers } from '../generated/types.js';
import { getWeather } from './tools/getWeather.js';
import { getForecast } from './tools/getForecast.js';
import { resources } from './resources.js';
import { resourceTemplates } from './resource-templates.js';
import { prompts } from './prompts.js';
import { resourceLists } from './resource-lists.js';
import { STATIONS } from './data.js';
import { climateReport } from './tools/climateReport.js';

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
  prompts,
  resourceLists,
  // plan_outing's `activity` and the station `id` complete from the manifest's enums; `location`
  // completes from the station names here.
  completions: {
    plan_outing: {
      location: (typed) => STATIONS.map((s) => s.name).filter((name) => name.toLowerCase().startsWith(typed.toLowerCase())),
    },
  },
};
