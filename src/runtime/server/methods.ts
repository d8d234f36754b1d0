/**
 * The dispatch table: every method the runtime answers (besides `initialize`), filled once by the
 * method modules. Both eras dispatch through it; see `Session.request`.
 */
import { registerCompletion } from '../features/completion/completion.js';
import { registerLifecycle } from './lifecycle.js';
import { registerLogging } from '../features/logging/logging.js';
import type { MethodEntry, MethodTable } from './method-common.js';
import { registerPrompts } from '../features/prompts/prompts.js';
import { registerResources } from '../features/resources/resources.js';
import { registerSubscriptions } from '../features/subscriptions/subscriptions.js';
import { registerTasks } from '../features/tasks/tasks.js';
import { registerTools } from '../features/tools/tools.js';

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

export const METHODS: ReadonlyMap<string, MethodEntry> = buildMethodTable();
