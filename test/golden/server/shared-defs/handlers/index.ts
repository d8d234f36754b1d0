import type { Handlers } from '../generated/types.js';

/**
 * Every handler of the server, checked against the generated `Handlers` type. A tool's module is
 * imported on the tool's first call, so the server starts without loading any of them (a module
 * that fails to load makes that tool's calls fail with the reason). Regenerating adds new tools
 * here; a tool removed from the manifest shows up as a type error until you remove it.
 */
export const handlers: Handlers = {
  tools: {
    get_repository: (input, context) =>
      import('./tools/getRepository.js').then((m) => m.getRepository(input, context)),
    update_repository: (input, context) =>
      import('./tools/updateRepository.js').then((m) => m.updateRepository(input, context)),
    list_repositories: (input, context) =>
      import('./tools/listRepositories.js').then((m) => m.listRepositories(input, context)),
    get_fork: (input, context) =>
      import('./tools/getFork.js').then((m) => m.getFork(input, context)),
    ping: (input, context) => import('./tools/ping.js').then((m) => m.ping(input, context)),
  },
};
