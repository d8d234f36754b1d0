/**
 * What the server core derives from the definition and options for tasks: each tool's
 * `execution.taskSupport`, the settings with their defaults, and the capabilities that declare
 * tasks as each revision spells them.
 */
import type { JsonObject, TaskOptions } from '../api.js';
import { isObject } from '../protocol/jsonrpc.js';
import { STATELESS_REVISION } from '../protocol/methods.js';
import { TASKS_EXTENSION } from './task-wire.js';

/** Task settings with their defaults filled in. */
export type TaskSettings = Readonly<Required<Omit<TaskOptions, 'store'>>>;

export function taskSupportOf(tool: JsonObject): 'forbidden' | 'optional' | 'required' {
  const execution = tool['execution'];
  const support = isObject(execution) ? execution['taskSupport'] : undefined;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

export function taskSettings(given: TaskOptions | undefined): TaskSettings {
  const settings = {
    ttlMs: 60 * 60 * 1000,
    maxTtlMs: 24 * 60 * 60 * 1000,
    pollIntervalMs: 500,
    maxRunning: 1000,
  };
  for (const key of Object.keys(settings) as (keyof typeof settings)[]) {
    const value = given?.[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`tasks.${key} must be a positive integer, got ${String(value)}`);
    settings[key] = value;
  }
  return Object.freeze(settings);
}

/**
 * The capabilities with tasks declared as each revision spells them: `tasks` from 2025-11-25 (list,
 * cancel, task-augmented tools/call), the `io.modelcontextprotocol/tasks` extension in 2026-07-28.
 */
export function withTasks(capabilities: JsonObject, offered: boolean, version: string): JsonObject {
  if (!offered || version < '2025-11-25') return capabilities;
  if (version === STATELESS_REVISION) {
    const extensions = isObject(capabilities['extensions']) ? capabilities['extensions'] : {};
    return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
  }
  return { ...capabilities, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
}
