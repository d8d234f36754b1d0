/**
 * completion/complete per argument (issue 14 item 5): the argument's own handler (typed per prompt
 * argument and template variable in generated code), then the server-wide `complete`, then the
 * manifest's enum values; and the server's hook for notifications/roots/list_changed.
 */
import { describe, expect, it } from 'vitest';
import type { ServerDefinition, ServerHandlers } from '../../src/runtime/api.js';
import { handlers } from './fixtures/demo-server.js';
import { RawStdio, type Message } from './raw-stdio.js';

function withDefaults(definition: ServerDefinition): ServerDefinition {
  return {
    ...definition,
    completionDefaults: {
      prompts: { greet: { style: ['formal', 'friendly', 'funny'] } },
      resourceTemplates: { 'weather://{city}/current': { city: ['Lisbon', 'London', 'Oslo'] } },
    },
  };
}

const promptRef = { type: 'ref/prompt', name: 'greet' };
const templateRef = { type: 'ref/resource', uri: 'weather://{city}/current' };

async function complete(stdio: RawStdio, id: number, ref: Message, name: string, value: string, resolved?: Record<string, string>): Promise<Message> {
  const params: Message = { ref, argument: { name, value } };
  if (resolved !== undefined) params['context'] = { arguments: resolved };
  return stdio.call(id, 'completion/complete', params);
}

describe('completion/complete per argument', () => {
  it('asks the argument handler with the typed value and the resolved arguments; others fall back to the enums', async () => {
    const seen: unknown[] = [];
    const { complete: _serverWide, ...rest } = handlers;
    const own: ServerHandlers = {
      ...rest,
      completions: {
        greet: {
          name: (value, resolved, context) => {
            seen.push({ value, resolved, revision: context.protocolVersion });
            return ['Ada', 'Alan', 'Grace'].filter((n) => n.startsWith(value));
          },
        },
        'weather://{city}/current': { city: async (value) => ({ values: [`${value}ville`], total: 7, hasMore: true }) },
      },
    };
    const stdio = new RawStdio(3, withDefaults, own);
    await stdio.initialize('2025-11-25');
    expect((await complete(stdio, 1, promptRef, 'name', 'A', { style: 'formal' }))['result']).toEqual({ completion: { values: ['Ada', 'Alan'] } });
    expect(seen).toEqual([{ value: 'A', resolved: { style: 'formal' }, revision: '2025-11-25' }]);
    expect((await complete(stdio, 2, templateRef, 'city', 'Bo'))['result']).toEqual({ completion: { values: ['Boville'], total: 7, hasMore: true } });
    // No handler for `style`: the manifest's enum values that start with what was typed.
    expect((await complete(stdio, 3, promptRef, 'style', 'f'))['result']).toEqual({ completion: { values: ['formal', 'friendly', 'funny'] } });
    expect((await complete(stdio, 4, promptRef, 'style', 'fu'))['result']).toEqual({ completion: { values: ['funny'] } });
    // Neither handler nor enum: no values. A prototype name is no entry.
    expect((await complete(stdio, 5, { type: 'ref/prompt', name: 'constructor' }, 'call', ''))['result']).toEqual({ completion: { values: [] } });
    stdio.input.end();
    await stdio.done;
  });

  it('uses the server-wide complete for arguments without their own handler, before the enums', async () => {
    const stdio = new RawStdio(3, withDefaults, { ...handlers, completions: { greet: { name: () => ['Ada'] } } });
    await stdio.initialize('2025-11-25');
    expect((await complete(stdio, 1, promptRef, 'name', ''))['result']).toEqual({ completion: { values: ['Ada'] } });
    // demo-server's `complete` answers units for anything.
    expect((await complete(stdio, 2, promptRef, 'style', 'c'))['result']).toEqual({ completion: { values: ['celsius'] } });
    stdio.input.end();
    await stdio.done;
  });

  it('a handler that throws is a -32603 and the server keeps serving', async () => {
    const stdio = new RawStdio(3, withDefaults, {
      ...handlers,
      completions: {
        greet: {
          name: () => {
            throw new Error('no names today');
          },
        },
      },
    });
    await stdio.initialize('2025-11-25');
    expect((await complete(stdio, 1, promptRef, 'name', ''))['error']).toEqual({ code: -32603, message: 'no names today' });
    // The next request is answered (by demo-server's `complete`: no unit starts with L).
    expect((await complete(stdio, 2, templateRef, 'city', 'L'))['result']).toEqual({ completion: { values: [] } });
    stdio.input.end();
    await stdio.done;
  });
});

describe('notifications/roots/list_changed', () => {
  it('reaches onRootsListChanged with the session it came from; a throwing hook is logged', async () => {
    const heard: unknown[] = [];
    const stdio = new RawStdio(3, (d) => d, {
      ...handlers,
      onRootsListChanged: (client) => {
        heard.push(client);
        if (heard.length === 2) throw new Error('hook failed');
      },
    });
    await stdio.initialize('2025-11-25', { roots: { listChanged: true } });
    stdio.sendJson({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    stdio.sendJson({ jsonrpc: '2.0', method: 'notifications/roots/list_changed', params: {} });
    expect((await stdio.call(9, 'ping'))['result']).toEqual({});
    expect(heard).toEqual([
      { sessionId: undefined, protocolVersion: '2025-11-25', clientCapabilities: { roots: { listChanged: true } } },
      { sessionId: undefined, protocolVersion: '2025-11-25', clientCapabilities: { roots: { listChanged: true } } },
    ]);
    expect(stdio.serverLog.some((line) => line.startsWith('onRootsListChanged threw: Error: hook failed'))).toBe(true);
    stdio.input.end();
    await stdio.done;
  });
});
