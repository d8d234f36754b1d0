import { describe, expect, it } from 'vitest';
import { resultValidators } from '../../generated/runtime/result-validators.js';
import { RawStdio, type Message } from './raw-stdio.js';

/** A server whose result validators come from a loader, as generated servers pass them. */
function serverWithLoader(): { stdio: RawStdio; loads: () => number } {
  let loads = 0;
  const stdio = new RawStdio(3, (definition) => ({
    ...definition,
    resultValidators: async () => {
      loads += 1;
      return resultValidators;
    },
  }));
  return { stdio, loads: () => loads };
}

const answered = new Set<unknown>();

/** Calls the tool that elicits a name, answers its elicitation/create with `answer`, returns the tool's response. */
async function askName(stdio: RawStdio, id: number, answer: Message): Promise<Message> {
  stdio.sendJson({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask_name', arguments: {} } });
  const request = await stdio.waitFor((m) => m['method'] === 'elicitation/create' && !answered.has(m['id']));
  answered.add(request['id']);
  stdio.sendJson({ jsonrpc: '2.0', id: request['id'], result: answer });
  return stdio.response(id);
}

describe('result validators passed as a loader', () => {
  it('are loaded once, on the first request to the client, and still refuse a bad result', async () => {
    const { stdio, loads } = serverWithLoader();
    await stdio.initialize('2025-11-25', { elicitation: {} });
    await stdio.call(2, 'tools/list');
    expect(loads()).toBe(0);

    const bad = await askName(stdio, 3, { action: 'maybe' });
    expect(bad['result']['isError']).toBe(true);
    expect(bad['result']['content'][0]['text']).toMatch(/Invalid elicitation\/create result from the client: \/action/);

    const good = await askName(stdio, 4, { action: 'accept', content: { name: 'Ada' } });
    expect(good['result']).toEqual({ content: [{ type: 'text', text: 'Hello, Ada' }] });
    expect(loads()).toBe(1);
    stdio.input.end();
    await stdio.done;
  });
});
