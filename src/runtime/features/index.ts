/**
 * Every feature, registered once into the seam the dispatch core reads (server/features.ts): the
 * handler of each method in the table (protocol/methods.ts) and what the session and the request
 * context call. `createServer` (index.ts) hands the result to the server core.
 */
import type { Features, NotificationHandler } from '../server/features.js';
import { registerLifecycle } from '../server/lifecycle.js';
import type { MethodTable } from '../server/method-common.js';
import { ROOTS_LIST_CHANGED } from '../protocol/methods.js';
import { registerCompletion } from './completion/completion.js';
import { cancelOutgoing, clientResponse, requestClient } from './input/client-requests.js';
import { openInputState, validWithoutAnswers } from './input/input-requests.js';
import { rootsListChanged } from './input/roots.js';
import {
  answerInputError,
  completeElicitation,
  urlElicitationParams,
} from './input/url-elicitation.js';
import { registerLogging, sendLog } from './logging/logging.js';
import { registerPrompts } from './prompts/prompts.js';
import { registerResources } from './resources/resources.js';
import { changed, registerSubscriptions } from './subscriptions/subscriptions.js';
import { registerTasks } from './tasks/tasks.js';
import { registerTools } from './tools/tools.js';

function buildMethodTable(): MethodTable {
  const table: MethodTable = new Map();
  registerLifecycle(table);
  registerTools(table);
  registerResources(table);
  registerPrompts(table);
  registerCompletion(table);
  registerLogging(table);
  registerSubscriptions(table);
  registerTasks(table);
  return table;
}

let installed: Features | undefined;

/** With tracing on, each request to the client is a span whose context rides in its `_meta`. */
const tracedRequestClient: Features['requestClient'] = (
  session,
  context,
  method,
  capability,
  params,
  options,
) =>
  session.core.tracing === undefined
    ? requestClient(session, context, method, capability, params, options)
    : session.core.tracing.askClient(context, method, params, (traced) =>
        requestClient(session, context, method, capability, traced, options),
      );

/** The features every server runs with, built on the first call and shared by every server core. */
export function installFeatures(): Features {
  return (installed ??= Object.freeze({
    methods: buildMethodTable(),
    notifications: new Map<string, NotificationHandler>([
      [ROOTS_LIST_CHANGED, (session) => rootsListChanged(session)],
    ]),
    clientResponse,
    requestClient: tracedRequestClient,
    cancelOutgoing,
    sendLog,
    elicitationParams: urlElicitationParams,
    completeElicitation,
    answerInputError,
    openInputState,
    validWithoutAnswers,
    changed,
  }));
}
