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
  tools: {
    ['__proto__']: (input, context) =>
      import('./tools/proto.js').then((m) => m.proto(input, context)),
    constructor: (input, context) =>
      import('./tools/constructor_.js').then((m) => m.constructor_(input, context)),
    class: (input, context) => import('./tools/class_.js').then((m) => m.class_(input, context)),
    '1abc': (input, context) => import('./tools/_1abc.js').then((m) => m._1abc(input, context)),
    'get-user': (input, context) =>
      import('./tools/getUser.js').then((m) => m.getUser(input, context)),
    get_user: (input, context) =>
      import('./tools/getUser_2.js').then((m) => m.getUser_2(input, context)),
    toString: (input, context) =>
      import('./tools/toString.js').then((m) => m.toString(input, context)),
    handlers: (input, context) =>
      import('./tools/handlers.js').then((m) => m.handlers(input, context)),
    resources: (input, context) =>
      import('./tools/resources.js').then((m) => m.resources(input, context)),
  },
  resources,
  resourceTemplates,
  prompts,
};
