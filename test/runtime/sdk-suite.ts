/**
 * One suite of interop checks run against the runtime with the official SDK client, once per
 * transport: the same server definition must behave the same over stdio and Streamable HTTP.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';

export interface SdkTarget {
  /** A connected client that declared `capabilities` (and answers elicitation). */
  client(): Client;
  /** Notifications the client received, in order. */
  logs: LoggingMessageNotification['params'][];
}

export const CLIENT_CAPABILITIES = { elicitation: {} };

/** Wires the handlers every suite client needs; call before `connect`. */
export function prepareClient(client: Client, logs: SdkTarget['logs']): void {
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    expect(request.params.message).toBe('What is your name?');
    return { action: 'accept', content: { name: 'Ada' } };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
  });
}

function textOf(result: object): string {
  const content = (result as { content?: unknown }).content as { type: string; text?: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  return content[0]!.text!;
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

export function defineSdkSuite(target: SdkTarget): void {
  let client: Client;
  beforeAll(() => {
    client = target.client();
  });

  it('negotiates the newest revision and reports identity and capabilities', async () => {
    expect(client.getServerVersion()).toEqual({ name: 'runtime-demo', version: '1.0.0' });
    expect(client.getInstructions()).toBe('A server for runtime tests');
    expect(client.getServerCapabilities()).toEqual({
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      logging: {},
      completions: {},
    });
    expect(await client.ping()).toEqual({});
  });

  it('pages through tools/list with opaque cursors', async () => {
    const names: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      pageSizes.push(page.tools.length);
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(pageSizes).toEqual([3, 3, 1]);
    expect(names).toEqual(['get_weather', 'echo', 'fail', 'slow', 'aborted_count', 'ask_name', 'list_roots']);
    const invalid = await rejection(client.listTools({ cursor: 'not-a-cursor' }));
    expect(invalid.code).toBe(-32602);
  });

  it('calls a tool with structured output, filling content with its JSON', async () => {
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Paris', units: 'fahrenheit' } });
    expect(result.structuredContent).toEqual({ temperature: 71.6, conditions: 'sunny in Paris' });
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    expect(result.isError).toBeUndefined();
  });

  it('calls a content-only tool', async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'héllo "world"\n' } });
    expect(textOf(result)).toBe('héllo "world"\n');
  });

  it('reports invalid arguments as a tool execution error naming the field', async () => {
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'Paris', units: 'kelvin' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Invalid arguments for tool get_weather: /units must be equal to one of the allowed values (celsius, fahrenheit)',
    );
    const missing = await client.callTool({ name: 'get_weather' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe("Invalid arguments for tool get_weather: must have required property 'location'");
  });

  it('refuses structured content that breaks the outputSchema', async () => {
    const result = await client.callTool({ name: 'get_weather', arguments: { location: 'broken' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toBe(
      'Tool get_weather returned structured content that does not match its outputSchema: /temperature must be number',
    );
    const none = await client.callTool({ name: 'get_weather', arguments: { location: 'nowhere' } });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toBe('Tool get_weather declares an outputSchema but returned no structured content');
  });

  it('turns a handler exception into isError with the message and no stack', async () => {
    const result = await client.callTool({ name: 'fail', arguments: {} });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toBe('kaboom: the handler failed');
    expect(text).not.toMatch(/\bat /);
  });

  it('answers an unknown tool with a -32602 JSON-RPC error', async () => {
    const error = await rejection(client.callTool({ name: 'no_such_tool', arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('Unknown tool: no_such_tool');
  });

  it('sends progress for the request token and log messages above the level', async () => {
    await client.setLoggingLevel('info');
    target.logs.length = 0;
    const progress: unknown[] = [];
    // The SDK client handles notifications a microtask late but responses at once, so a progress
    // notification arriving in the same read as the response is dropped; the steps are spaced apart.
    const result = await client.callTool({ name: 'slow', arguments: { steps: 3, ms: 50 } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(textOf(result)).toBe('done after 3 steps');
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
    // The debug messages fall below the `info` threshold.
    expect(target.logs).toEqual([1, 2, 3].map((step) => ({ level: 'info', logger: 'slow', data: { step } })));
  });

  it('aborts the handler signal when the client cancels', async () => {
    const before = Number(textOf(await client.callTool({ name: 'aborted_count', arguments: {} })));
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: { steps: 1, ms: 30_000 } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('test cancels'), 100);
    await expect(call).rejects.toThrow();
    let after = before;
    for (let attempt = 0; attempt < 50 && after === before; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = Number(textOf(await client.callTool({ name: 'aborted_count', arguments: {} })));
    }
    expect(after).toBe(before + 1);
  });

  it('round-trips an elicitation request to the client', async () => {
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(textOf(result)).toBe('Hello, Ada');
  });

  it('refuses server requests the client has no capability for', async () => {
    const result = await client.callTool({ name: 'list_roots', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('roots/list: the client did not declare the roots capability');
  });

  it('reads resources by exact URI and through templates', async () => {
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['info://server']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'weather://{city}/current',
    ]);
    const info = await client.readResource({ uri: 'info://server' });
    expect(info.contents).toEqual([{ uri: 'info://server', mimeType: 'text/plain', text: 'runtime demo server' }]);
    const city = await client.readResource({ uri: 'weather://New%20York/current' });
    expect(city.contents[0]).toMatchObject({ uri: 'weather://New%20York/current', text: '{"city":"New York"}' });
    const unknown = await rejection(client.readResource({ uri: 'nothing://here' }));
    expect(unknown.code).toBe(-32002);
    const thrown = await rejection(client.readResource({ uri: 'weather://Atlantis/current' }));
    expect(thrown.code).toBe(-32002);
    expect(await client.subscribeResource({ uri: 'info://server' })).toEqual({});
    expect(await client.unsubscribeResource({ uri: 'info://server' })).toEqual({});
  });

  it('gets prompts and checks their required arguments', async () => {
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada', style: 'formal' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Greet Ada in a formal way' } }]);
    expect((await rejection(client.getPrompt({ name: 'greet', arguments: {} }))).code).toBe(-32602);
    expect((await rejection(client.getPrompt({ name: 'nope' }))).code).toBe(-32602);
  });

  it('answers completion requests from the handler', async () => {
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: 'c' },
    });
    expect(result.completion.values).toEqual(['celsius']);
  });
}
