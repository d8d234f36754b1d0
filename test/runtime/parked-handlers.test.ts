// A 2026-07-28 handler that asks for input is parked: its promise never settles, and the client's
// retry runs the handler again. The parked run must then be garbage. They were all kept, with their
// request context, session and HTTP exchange, because every one awaited the same never-settling
// promise, whose reaction list only grew: the soak's RSS rose 35-60 % in 2 minutes
// (bench/RESULTS.md, "Soak").
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { RequestContext, ServerHandlers } from '../../src/runtime/api.js';
import { RawStdio, type Message } from './raw-stdio.js';
import { inputDefinition, inputHandlers, statelessMeta } from './fixtures/input-server.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The fixture's server, keeping the request context of every run of `form_name` weakly. */
function trackedServer(): { stdio: RawStdio; runs: WeakRef<RequestContext>[] } {
  const runs: WeakRef<RequestContext>[] = [];
  const handlers: ServerHandlers = {
    tools: {
      ...inputHandlers.tools,
      form_name: async (_args: unknown, context: RequestContext) => {
        runs.push(new WeakRef(context));
        const answer = await context.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
        return { content: [{ type: 'text', text: `form: ${answer.action}` }] };
      },
    },
  };
  return { stdio: new RawStdio(100, () => inputDefinition(), handlers), runs };
}

async function collect(runs: WeakRef<RequestContext>[]): Promise<number> {
  // A few rounds: a parked run is freed once the turn that parked it has unwound.
  for (let round = 0; round < 4; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return runs.filter((run) => run.deref() !== undefined).length;
}

function call(stdio: RawStdio, id: number, capabilities: Message, extra: Message = {}): Promise<Message> {
  return stdio.call(id, 'tools/call', { name: 'form_name', arguments: {}, ...extra, _meta: statelessMeta(capabilities) });
}

describe('2026-07-28 handlers parked for input', () => {
  it('are garbage once the input-required result is sent, answered or not', async () => {
    const { stdio, runs } = trackedServer();
    const rounds = 40;
    for (let i = 0; i < rounds; i++) {
      const first = await call(stdio, 2 * i, { elicitation: {} });
      expect(first['result']['resultType']).toBe('input_required');
      // Every other round the client answers: the retry completes, and the first run stays parked.
      if (i % 2 === 0) {
        const retry = await call(stdio, 2 * i + 1, { elicitation: {} }, {
          inputResponses: { 'elicitation-1': { action: 'decline' } },
          requestState: first['result']['requestState'],
        });
        expect(retry['result']['content'][0]['text']).toBe('form: decline');
      }
    }
    expect(runs.length).toBe(rounds + rounds / 2);
    expect(await collect(runs)).toBe(0);
    stdio.input.end();
    await stdio.done;
  });

  it('are garbage after a -32021 for a capability the client lacks', async () => {
    const { stdio, runs } = trackedServer();
    for (let i = 0; i < 20; i++) expect((await call(stdio, i, {}))['error']['code']).toBe(-32021);
    expect(runs.length).toBe(20);
    expect(await collect(runs)).toBe(0);
    stdio.input.end();
    await stdio.done;
  });
});
