/**
 * The request envelope validators load on first use (`ServerDefinition.requestValidators` as a
 * function, what generated servers pass): a start answers `initialize` with its own validator only;
 * the messages after it wait for the table, keep their order, and are all answered before the
 * server ends.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/runtime/index.js';
import type { ValidatorTable } from '../../src/runtime/api.js';
import { requestValidators } from '../../generated/runtime/request-validators.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';

const INITIALIZE = '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';

/** A stdio server whose request validators come from `load`; resolves with every line it wrote once its input has ended. */
function serve(load: () => Promise<ValidatorTable>): { input: PassThrough; lines: () => Record<string, unknown>[]; done: Promise<void> } {
  const input = new PassThrough();
  const output = new PassThrough();
  let out = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => (out += chunk));
  const definition = { ...buildDefinition(3), requestValidators: load };
  const done = createServer(definition, handlers, { logger: () => {} }).serveStdio({ input, output });
  return { input, done, lines: () => out.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** Loads the real table after a few milliseconds (as a dynamic import reads a file), counting the loads. */
function slowLoader(): { load: () => Promise<ValidatorTable>; calls: () => number } {
  let calls = 0;
  return {
    load: () => {
      calls++;
      return new Promise((resolve) => setTimeout(() => resolve(requestValidators), 20));
    },
    calls: () => calls,
  };
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('request validators loaded on first use', () => {
  it('answers initialize without loading them; the lines after it wait for them, in order, and are all answered', async () => {
    const loader = slowLoader();
    const server = serve(loader.load);
    server.input.write(`${INITIALIZE}\n`);
    await until(() => server.lines().length === 1);
    expect(server.lines()[0]).toMatchObject({ id: 'init', result: { protocolVersion: '2025-11-25' } });
    expect(loader.calls()).toBe(0);
    // One chunk, ended at once: an envelope error, a tool call, a parse error and a ping.
    server.input.end(
      [
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}',
        'not json',
        '{"jsonrpc":"2.0","id":3,"method":"ping"}',
      ].join('\n') + '\n',
    );
    await server.done;
    expect(loader.calls()).toBe(1);
    const answers = server.lines().slice(1);
    expect(answers.map((m) => [m['id'], (m['error'] as { code?: number } | undefined)?.code])).toEqual([
      [1, -32602],
      [2, undefined],
      [null, -32700],
      [3, undefined],
    ]);
    expect(answers[1]).toMatchObject({ result: { content: [{ type: 'text', text: 'hi' }] } });
  });

  it('answers with an internal error when they cannot be loaded, and keeps serving initialize', async () => {
    let calls = 0;
    const server = serve(() => {
      calls++;
      return Promise.reject(new Error('gone'));
    });
    server.input.end(`${INITIALIZE}\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    await server.done;
    expect(calls).toBe(1);
    expect(server.lines().map((m) => [m['id'], (m['error'] as { code?: number } | undefined)?.code])).toEqual([
      ['init', undefined],
      [1, -32603],
      [2, -32603],
    ]);
  });

  it('refuses a definition that loads them but has no initialize validator', () => {
    const { initializeValidator: _left, ...definition } = { ...buildDefinition(3), requestValidators: () => Promise.resolve(requestValidators) };
    expect(() => createServer(definition, handlers)).toThrow(/needs an initializeValidator/);
  });
});
