// Issue 16 item 5: a generated server hands the runtime a `load` function per tool instead of its
// validators, so starting a server with a thousand tools parses none of them. These tests hold the
// runtime to that contract over real stdio streams: nothing loads before a tool's first call, a
// load is shared and happens once, the answer waits for it (even when the input has already
// ended), and a module that fails to load costs that call only, with an error naming the tool.
import { PassThrough } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { JsonObject, ServerDefinition, ToolValidators, Validator } from '../../src/runtime/api.js';
import { createServer } from '../../src/runtime/index.js';

const ajv = new Ajv2020({ strict: false });
const inputSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
const outputSchema = { type: 'object', properties: { twice: { type: 'integer' } }, required: ['twice'] };
const compiled = (): ToolValidators => ({
  validateInput: ajv.compile(inputSchema) as Validator<unknown>,
  validateOutput: ajv.compile(outputSchema) as Validator<unknown>,
});

/** Sends `messages` after initialize on one stdin that then ends; the answers by id, and what was logged. */
async function exchange(load: () => Promise<ToolValidators>, messages: JsonObject[]): Promise<{ answers: Map<number, any>; log: string[] }> {
  const definition: ServerDefinition = {
    serverInfo: { name: 'lazy', version: '1' },
    protocolVersions: ['2025-11-25'],
    capabilities: { tools: {} },
    tools: [{ name: 'double', inputSchema, outputSchema }],
    toolBindings: { double: { name: 'double', load } },
    resources: [],
    resourceTemplates: [],
    prompts: [],
    requestValidators: {},
  };
  const log: string[] = [];
  const handler = async (input: unknown): Promise<never> => ({ structuredContent: { twice: (input as { n: number }).n * 2 } }) as never;
  const input = new PassThrough();
  const output = new PassThrough();
  const done = createServer(definition, { tools: { double: handler } }, { logger: (line) => log.push(line) }).serveStdio({ input, output });
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
  input.end([initialize, ...messages].map((m) => JSON.stringify(m)).join('\n') + '\n');
  await done;
  const answers = new Map<number, any>();
  for (const line of text.trim().split('\n')) {
    const message = JSON.parse(line) as { id: number };
    answers.set(message.id, message);
  }
  return { answers, log };
}

const call = (id: number, args: JsonObject): JsonObject => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'double', arguments: args } });

describe('tool validators loaded on the first call', () => {
  it('are not loaded to list tools, load once for several calls, and validate as usual', async () => {
    let loads = 0;
    const load = async (): Promise<ToolValidators> => {
      loads++;
      return compiled();
    };
    const listed = await exchange(load, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
    expect(listed.answers.get(1).result.tools.map((t: JsonObject) => t['name'])).toEqual(['double']);
    expect(loads).toBe(0);

    // Three calls in one chunk: the first two wait on the same import; the input has ended before any answer.
    const called = await exchange(load, [call(1, { n: 2 }), call(2, { n: 'two' }), call(3, { n: 5 })]);
    expect(loads).toBe(1);
    expect(called.answers.get(1).result.structuredContent).toEqual({ twice: 4 });
    expect(called.answers.get(2).result.isError).toBe(true);
    expect(called.answers.get(2).result.content[0].text).toBe('Invalid arguments for tool double: /n must be integer');
    expect(called.answers.get(3).result.structuredContent).toEqual({ twice: 10 });
  });

  it('that fail to load fail that call with an internal error naming the tool; the server keeps serving and tries again', async () => {
    let attempts = 0;
    const load = async (): Promise<ToolValidators> => {
      attempts++;
      if (attempts === 1) throw new Error("Cannot find module './validators/double.js'");
      return compiled();
    };
    const first = await exchange(load, [call(1, { n: 1 }), { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(first.answers.get(1).error).toEqual({ code: -32603, message: 'Tool double is unavailable: its validators could not be loaded' });
    expect(first.answers.get(2).result).toEqual({});
    expect(first.log.join('\n')).toContain("Loading the validators of tool double failed: Error: Cannot find module './validators/double.js'");
    const second = await exchange(load, [call(1, { n: 1 })]);
    expect(second.answers.get(1).result.structuredContent).toEqual({ twice: 2 });
    expect(attempts).toBe(2);
  });

  it('must match the declaration: no output validator for a tool with an outputSchema is a load failure', async () => {
    const load = async (): Promise<ToolValidators> => ({ validateInput: compiled().validateInput });
    const { answers, log } = await exchange(load, [call(1, { n: 1 })]);
    expect(answers.get(1).error.code).toBe(-32603);
    expect(log.join('\n')).toContain('validateOutput must be present exactly when the tool declares an outputSchema');
  });
});
