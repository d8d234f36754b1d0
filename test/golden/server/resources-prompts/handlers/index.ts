import type { Handlers } from '../generated/types.js';
import { resources } from './resources.js';
import { resourceTemplates } from './resource-templates.js';
import { prompts } from './prompts.js';

/**
 * Every handler of the server, checked against the generated `Handlers` type. A tool's module is
 * imported on the tool's first call, so the server starts without loading any of them (a module
 * that fails to load makes that tool's calls fail with the reason). Regenerating adds new tools
 * here; a tool removed from the manifest shows up as a type error until you remove it.
 */
export const handlers: Handlers = {
  tools: {},
  resources,
  resourceTemplates,
  prompts,
};
