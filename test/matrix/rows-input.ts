/**
 * Rows 10 and 11 (issue 14 items 3 and 4): what a server may ask a client below the top-level
 * capability. Each row opens two connections of the cell's client kind: one declaring URL-mode
 * elicitation and `sampling.tools`, one declaring neither (form-only elicitation, plain sampling),
 * and checks that the first is asked and answers while the second is never asked and the handler
 * gets a refusal. They run against our server, whose `sign_in` and `sample_tools` tools exercise it.
 */
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as Sdk2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Sdk1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Sdk1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { ClientKind, Combination, Era } from './cells.js';
import { until, type OurClientModule, type ToolOutcome } from './clients.js';
import type { Location } from './servers.js';

export const SIGN_IN_URL = 'https://auth.example.com/matrix';

export interface InputRowContext {
  combination: Combination;
  /** Where the cell's server is. */
  location: Location;
  /** Our generated client module of the main manifest (only asked for when the cell's client is ours). */
  ourClient: () => OurClientModule;
}

export const INPUT_ROWS = [
  { id: 'I1', title: 'URL elicitation round-trips; refused to a form-only client' },
  { id: 'I2', title: 'tool-enabled sampling reaches a client with sampling.tools; refused to one without' },
] as const;
export type InputRowId = (typeof INPUT_ROWS)[number]['id'];

/** The rows exercise our server's checks; the SDK servers of the matrix serve no such tools. */
export function inputRowNotApplicable(c: Combination): string | undefined {
  return c.server === 'ours' ? undefined : "the row exercises the generated server's checks of the client's declared modes; the SDK servers in the matrix serve no URL-elicitation or tool-sampling tool";
}

/** A connection declaring either everything these rows need (`full`) or only form mode and plain sampling. */
interface InputClient {
  /** What the server asked: `url: <url>`, `form: <message>`, `sampling: <n> tools`. */
  readonly asked: string[];
  readonly notifications: string[];
  call(name: string): Promise<ToolOutcome>;
  close(): Promise<void>;
}

function textOf(result: { isError?: unknown; content?: unknown }): ToolOutcome {
  const blocks = Array.isArray(result.content) ? (result.content as { type?: string; text?: string }[]) : [];
  return { isError: result.isError === true, text: blocks.filter((b) => b.type === 'text').map((b) => b.text).join('\n'), structured: undefined };
}

function answers(asked: string[]) {
  return {
    form: (params: { message?: unknown }) => {
      asked.push(`form: ${String(params.message)}`);
      return { action: 'decline' as const };
    },
    url: (params: { url?: unknown }) => {
      asked.push(`url: ${String(params.url)}`);
      return { action: 'accept' as const };
    },
    elicit(params: { mode?: unknown; url?: unknown; message?: unknown }) {
      return params.mode === 'url' ? this.url(params) : this.form(params);
    },
    sample: (params: { tools?: unknown }) => {
      asked.push(`sampling: ${Array.isArray(params.tools) ? params.tools.length : 0} tools`);
      return { role: 'assistant' as const, content: { type: 'text' as const, text: 'It is sunny' }, model: 'matrix-model', stopReason: 'endTurn' };
    },
  };
}

async function connectInput(kind: ClientKind, era: Era, location: Location, ours: () => OurClientModule, full: boolean): Promise<InputClient> {
  const asked: string[] = [];
  const notifications: string[] = [];
  const answer = answers(asked);
  if (kind === 'ours') {
    const client = await ours().connect({
      ...('url' in location ? { url: location.url } : { command: location.command, args: location.args, stderr: 'ignore', shutdownGraceMs: 500 }),
      protocolVersions: [era],
      handlers: {
        elicitation: full ? { form: answer.form, url: answer.url } : answer.form,
        sampling: full ? { createMessage: answer.sample, tools: true } : answer.sample,
      },
      onNotification: (method: string) => notifications.push(method),
    });
    return { asked, notifications, call: async (name) => textOf(await client.request('tools/call', { name, arguments: {} })), close: () => client.close() };
  }
  const capabilities = {
    elicitation: full ? { form: {}, url: {} } : { form: {} },
    sampling: full ? { tools: {} } : {},
  };
  if (kind === 'sdk1') {
    const client = new Sdk1Client({ name: 'matrix-sdk1-input', version: '1.0.0' }, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, (request) => answer.elicit(request.params));
    client.setRequestHandler(CreateMessageRequestSchema, (request) => answer.sample(request.params));
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      notifications.push(n.method);
    });
    const transport = 'url' in location ? new Sdk1Http(new URL(location.url)) : new Sdk1Stdio({ command: location.command, args: location.args, stderr: 'ignore' });
    await client.connect(transport);
    return { asked, notifications, call: async (name) => textOf((await client.callTool({ name, arguments: {} })) as { content?: unknown }), close: () => client.close() };
  }
  const client = new Sdk2Client(
    { name: 'matrix-sdk2-input', version: '2.0.0' },
    { capabilities, ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) },
  );
  client.setRequestHandler('elicitation/create', (request) => answer.elicit(request.params));
  client.setRequestHandler('sampling/createMessage', (request) => answer.sample(request.params));
  client.setNotificationHandler('notifications/elicitation/complete', (n) => {
    notifications.push(n.method);
  });
  const transport = 'url' in location ? new Sdk2Http(new URL(location.url)) : new Sdk2Stdio({ command: location.command, args: location.args, stderr: 'ignore' });
  await client.connect(transport);
  return { asked, notifications, call: async (name) => textOf(await client.callTool({ name, arguments: {} })), close: () => client.close() };
}

/** Runs `body` with a connection that declares URL mode and sampling.tools, then one that declares neither. */
async function withBoth(t: InputRowContext, body: (full: InputClient, plain: InputClient) => Promise<void>): Promise<void> {
  const { client, era } = t.combination;
  const full = await connectInput(client, era, t.location, t.ourClient, true);
  try {
    const plain = await connectInput(client, era, t.location, t.ourClient, false);
    try {
      await body(full, plain);
    } finally {
      await plain.close();
    }
  } finally {
    await full.close();
  }
}

async function rowUrlElicitation(t: InputRowContext): Promise<void> {
  await withBoth(t, async (full, plain) => {
    expect(await full.call('sign_in')).toEqual({ isError: false, text: 'signed in: accept', structured: undefined });
    expect(full.asked).toEqual([`url: ${SIGN_IN_URL}`]);
    // 2025-11-25 announces the completion; 2026-07-28 has no such notification.
    if (t.combination.era === '2025-11-25') await until(() => full.notifications.includes('notifications/elicitation/complete'), 5000, 'notifications/elicitation/complete');
    else expect(full.notifications).not.toContain('notifications/elicitation/complete');

    const refused = await plain.call('sign_in');
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe('elicitation/create: the client did not declare elicitation.url (it declared form)');
    expect(plain.asked).toEqual([]);
  });
}

async function rowToolSampling(t: InputRowContext): Promise<void> {
  await withBoth(t, async (full, plain) => {
    expect(await full.call('sample_tools')).toEqual({ isError: false, text: 'sampled by matrix-model', structured: undefined });
    expect(full.asked).toEqual(['sampling: 1 tools']);

    const refused = await plain.call('sample_tools');
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe('sampling/createMessage: the client did not declare sampling.tools, so it cannot be sent tools or toolChoice');
    expect(plain.asked).toEqual([]);
  });
}

export const INPUT_ROW_BODIES: Record<InputRowId, (t: InputRowContext) => Promise<void>> = {
  I1: rowUrlElicitation,
  I2: rowToolSampling,
};
