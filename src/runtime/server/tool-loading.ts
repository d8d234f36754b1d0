/**
 * Tool validators that load on a tool's first call. A generated server keeps each tool's
 * validators in a module of its own and hands the runtime a `load` function instead of the
 * validators (api.ts `ToolBinding`), so a server with a thousand tools starts without parsing
 * any of them. `tools/call` waits here for the import the first time, then runs as usual.
 */
import type { JsonObject, ToolValidators, Validator } from '../api.js';
import type { Context } from './context.js';
import { INTERNAL_ERROR, errorMessage } from '../protocol/jsonrpc.js';
import type { WireEntry } from './lists.js';
import { stackOf } from './method-common.js';
import type { ToolEntry } from './server-index.js';
import type { Session } from './session.js';

/** Stands in for a validator that has not loaded yet; `tools/call` never calls it (it waits for the load). */
export const notLoaded: Validator<unknown> = (_data: unknown): _data is unknown => {
  throw new Error('tool validators used before they were loaded');
};

/** The validators must match the tool's declaration: an output validator exactly when there is an outputSchema. */
export function checkToolValidators(tool: JsonObject, validators: ToolValidators): void {
  const name = String(tool['name']);
  if (typeof validators.validateInput !== 'function')
    throw new Error(`Tool ${name}: validateInput is not a function`);
  const hasOutputSchema = tool['outputSchema'] !== undefined;
  if (hasOutputSchema !== (validators.validateOutput !== undefined)) {
    throw new Error(
      `Tool ${name}: validateOutput must be present exactly when the tool declares an outputSchema`,
    );
  }
}

/** A tool's `load`, with what it loads held to the tool's declaration (read when they have loaded). */
export function lazyValidators(
  tool: WireEntry,
  load: () => Promise<ToolValidators>,
): () => Promise<ToolValidators> {
  return () =>
    load().then((validators) => {
      checkToolValidators(tool.value, validators);
      return validators;
    });
}

/** One import per tool, shared by concurrent first calls; a failed one is tried again on the next call. */
const loading = new WeakMap<ToolEntry, Promise<void>>();

function load(tool: ToolEntry, loader: () => Promise<ToolValidators>): Promise<void> {
  let pending = loading.get(tool);
  if (pending === undefined) {
    pending = loader().then((validators) => {
      tool.validateInput = validators.validateInput;
      tool.validateOutput = validators.validateOutput;
      tool.loadValidators = undefined;
    });
    pending.catch(() => loading.delete(tool));
    loading.set(tool, pending);
  }
  return pending;
}

/**
 * Loads the tool's validators, then `resume`s the call (which finds them loaded). The request
 * counts as in flight meanwhile, so it can be cancelled, times out and keeps the session busy
 * like a running handler. A module that fails to load answers this call with an internal error
 * naming the tool, logs why, and the server keeps serving.
 */
export function callAfterLoading(
  session: Session,
  context: Context,
  tool: ToolEntry,
  resume: () => void,
): void {
  const loader = tool.loadValidators as () => Promise<ToolValidators>;
  session.track(context);
  load(tool, loader).then(
    () => {
      // The resumed call tracks its own context before this one is settled: the session never looks idle in between.
      if (!context.done && !context.cancelled) resume();
      session.settle(context);
    },
    (error: unknown) => {
      session.core.log(`Loading the validators of tool ${tool.name} failed: ${stackOf(error)}`);
      if (!session.settle(context)) return;
      context.out.respond(
        errorMessage(
          context.idText,
          INTERNAL_ERROR,
          `Tool ${tool.name} is unavailable: its validators could not be loaded`,
        ),
      );
    },
  );
}
