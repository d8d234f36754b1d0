// Issue 6, finding 6: the output check judges the JSON that goes on the wire, not the object the
// handler returned. JSON.stringify calls toJSON, drops functions and undefined, and writes NaN and
// Infinity as null; a result that only matches its outputSchema before serialization is refused.
import { PassThrough } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { JsonObject, ServerDefinition, Validator } from '../../src/runtime/api.js';
import { createServer } from '../../src/runtime/index.js';

const ajv = new Ajv2020({ strict: false });
const outputSchema = { type: 'object', properties: { value: {}, count: { type: 'integer' } }, required: ['value', 'count'] };

/** Calls the one tool, whose handler returns `result`, and gives the tools/call response. */
async function callWith(result: unknown): Promise<Record<string, any>> {
  const definition: ServerDefinition = {
    serverInfo: { name: 'wire', version: '1' },
    protocolVersions: ['2025-11-25'],
    capabilities: { tools: {} },
    tools: [{ name: 't', inputSchema: { type: 'object' }, outputSchema }],
    toolBindings: {
      t: { name: 't', validateInput: ajv.compile({ type: 'object' }) as Validator<unknown>, validateOutput: ajv.compile(outputSchema) as Validator<unknown> },
    },
    resources: [],
    resourceTemplates: [],
    prompts: [],
    requestValidators: {},
  };
  const input = new PassThrough();
  const output = new PassThrough();
  const done = createServer(definition, { tools: { t: () => result as never } }, { logger: () => {} }).serveStdio({ input, output });
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  input.end(
    [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', arguments: {} } },
    ]
      .map((m) => JSON.stringify(m))
      .join('\n') + '\n',
  );
  await done;
  return JSON.parse(text.trim().split('\n')[1]!) as Record<string, any>;
}

const refusal = (response: Record<string, any>): string | undefined =>
  response['result']['isError'] === true ? (response['result']['content'][0]['text'] as string) : undefined;

describe('output enforcement judges the serialized structuredContent', () => {
  it('refuses a required property that serialization drops (a function value)', async () => {
    const response = await callWith({ structuredContent: { value: () => 1, count: 1 } });
    expect(refusal(response)).toBe("Tool t returned structured content that does not match its outputSchema: must have required property 'value'");
  });

  it('refuses what toJSON turns into something the schema forbids', async () => {
    const sneaky: JsonObject = { value: 1, count: 2, toJSON: () => ({ value: 1, count: 'two' }) };
    const response = await callWith({ content: [{ type: 'text', text: 'x' }], structuredContent: sneaky });
    expect(refusal(response)).toBe('Tool t returned structured content that does not match its outputSchema: /count must be integer');
  });

  it('refuses Infinity even when the validator itself lets it through (sent as null)', async () => {
    // This test's ajv is not strict about numbers: Infinity passes its integer check.
    expect(ajv.compile({ type: 'integer' })(Infinity)).toBe(true);
    const response = await callWith({ structuredContent: { value: 1, count: Infinity } });
    expect(refusal(response)).toBe('Tool t returned structured content that does not match its outputSchema: /count must be integer');
  });

  it('sends exactly the checked text, beside content and _meta', async () => {
    const response = await callWith({ content: [{ type: 'text', text: 'x' }], structuredContent: { value: [1, 'a'], count: 3 }, _meta: { m: 1 } });
    expect(response['result']).toEqual({ content: [{ type: 'text', text: 'x' }], _meta: { m: 1 }, structuredContent: { value: [1, 'a'], count: 3 } });
  });

  it('accepts a Date that serializes to a string where any value is allowed', async () => {
    const response = await callWith({ structuredContent: { value: new Date(0), count: 0 } });
    expect(response['result']['structuredContent']).toEqual({ value: '1970-01-01T00:00:00.000Z', count: 0 });
  });
});
