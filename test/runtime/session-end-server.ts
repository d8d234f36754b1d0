/**
 * The server the session-end tests (http-session-end.test.ts) and the chaos suite (test/chaos)
 * run: the demo server plus tools that hold their call open until the test lets them go or their
 * signal aborts, and that say when they started. `hold` answers with plain JSON, `hold_progress`
 * sends progress first (its answer becomes an SSE stream), `hold_task` may run as a task, and
 * `sample_once` and `elicit_once` ask the client for a sampling or an elicitation round.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject, RequestContext, ServerDefinition, ServerHandlers, Validator } from '../../src/runtime/api.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';

const ajv = new Ajv2020({ strict: false });
const holdInput = { type: 'object', properties: { ms: { type: 'integer' }, tag: { type: 'string' } } };
const validateHold = ajv.compile(holdInput) as Validator<unknown>;

/** What the hold tools report: which calls started and which saw their signal abort, by tag. */
export interface HoldLog {
  started: string[];
  aborted: string[];
  finished: string[];
  /** Resolves once a call with this tag has started. */
  whenStarted(tag: string): Promise<void>;
}

export function holdLog(): HoldLog {
  const waiters = new Map<string, () => void>();
  const log: HoldLog = {
    started: [],
    aborted: [],
    finished: [],
    whenStarted: (tag) =>
      log.started.includes(tag) ? Promise.resolve() : new Promise((resolve) => waiters.set(tag, resolve)),
  };
  const push = log.started.push.bind(log.started);
  log.started.push = (...tags: string[]) => {
    const length = push(...tags);
    for (const tag of tags) waiters.get(tag)?.();
    return length;
  };
  return log;
}

/** Waits `ms` (default 5 s) unless the call's signal aborts first; records both outcomes. */
async function hold(log: HoldLog, input: { ms?: number; tag?: string }, context: RequestContext): Promise<void> {
  const tag = input.tag ?? 'untagged';
  const signal = context.signal;
  log.started.push(tag);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, input.ms ?? 5000);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        log.aborted.push(tag);
        reject(new Error(`${tag} aborted`));
      },
      { once: true },
    );
  });
  log.finished.push(tag);
}

/** One round trip to the client, recorded like `hold`: a failed round counts as aborted when the signal fired. */
async function round(log: HoldLog, tag = 'untagged', context: RequestContext, ask: () => Promise<string>): Promise<string> {
  log.started.push(tag);
  try {
    const answer = await ask();
    log.finished.push(tag);
    return answer;
  } catch (error) {
    (context.signal.aborted ? log.aborted : log.finished).push(tag);
    throw error;
  }
}

export function sessionEndDefinition(): ServerDefinition {
  const base = buildDefinition(100);
  const tool = (name: string, extra: JsonObject = {}) => ({ name, description: `Holds its call (${name})`, inputSchema: holdInput, ...extra });
  return {
    ...base,
    protocolVersions: ['2026-07-28', ...base.protocolVersions],
    statelessValidators: () => import('../../generated/runtime/stateless-validators.js').then((m) => m.statelessValidators),
    capabilities: { ...base.capabilities, tools: { listChanged: true } },
    tools: [...base.tools, tool('hold'), tool('hold_progress'), tool('hold_task', { execution: { taskSupport: 'optional' } }), tool('sample_once'), tool('elicit_once')],
    toolBindings: {
      ...base.toolBindings,
      hold: { name: 'hold', validateInput: validateHold },
      hold_progress: { name: 'hold_progress', validateInput: validateHold },
      hold_task: { name: 'hold_task', validateInput: validateHold },
      sample_once: { name: 'sample_once', validateInput: validateHold },
      elicit_once: { name: 'elicit_once', validateInput: validateHold },
    },
  };
}

export function sessionEndHandlers(log: HoldLog): ServerHandlers {
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  return {
    ...handlers,
    tools: {
      ...handlers.tools,
      hold: async (input: { ms?: number; tag?: string }, context) => {
        await hold(log, input, context);
        return text('held');
      },
      hold_progress: async (input: { ms?: number; tag?: string }, context) => {
        await context.progress(1, 2, 'holding');
        await hold(log, input, context);
        await context.progress(2, 2, 'done');
        return text('held with progress');
      },
      hold_task: async (input: { ms?: number; tag?: string }, context) => {
        await hold(log, input, context);
        return text('held as a task');
      },
      sample_once: async (input: { tag?: string }, context) =>
        text(await round(log, input.tag, context, async () => {
          const answer = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 5 });
          return `sampled: ${JSON.stringify(answer.content)}`;
        })),
      elicit_once: async (input: { tag?: string }, context) =>
        text(await round(log, input.tag, context, async () => {
          const answer = await context.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
          return `elicited: ${answer.action}`;
        })),
    },
  };
}
