import type { Handlers } from '../generated/types.js';
import { proto } from './tools/proto.js';
import { constructor_ } from './tools/constructor_.js';
import { class_ } from './tools/class_.js';
import { _1abc } from './tools/_1abc.js';
import { getUser } from './tools/getUser.js';
import { getUser_2 } from './tools/getUser_2.js';
import { toString } from './tools/toString.js';
import { handlers as handlersTool } from './tools/handlers.js';
import { resources as resourcesTool } from './tools/resources.js';
import { resources } from './resources.js';
import { resourceTemplates } from './resource-templates.js';
import { prompts } from './prompts.js';

/**
 * Every handler of the server, checked against the generated `Handlers` type. Regenerating adds
 * new tools here; a tool removed from the manifest shows up as a type error until you remove it.
 */
export const handlers: Handlers = {
  tools: {
    ['__proto__']: proto,
    constructor: constructor_,
    class: class_,
    '1abc': _1abc,
    'get-user': getUser,
    get_user: getUser_2,
    toString: toString,
    handlers: handlersTool,
    resources: resourcesTool,
  },
  resources,
  resourceTemplates,
  prompts,
};
