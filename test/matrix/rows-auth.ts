/**
 * Rows of the resource-server half of OAuth (issue 15), against our generated server protected by
 * a manifest `auth` section (test/fixtures/auth, trusting an oidc-provider; one per matrix run):
 * - A1: with a bearer token the client connects and calls a tool, the handler seeing the token's
 *   subject in `context.auth`; a call needing a scope the token lacks is refused; without a token
 *   the client cannot connect.
 * Our client sends the token as a static header here (its OAuth flow is the client half's work).
 */
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Http } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, expect } from 'vitest';
import { startProtectedServer, type RunningProtectedServer } from '../auth/support/protected-server.js';
import type { Combination } from './cells.js';
import type { RowContext } from './rows.js';

export const AUTH_ROWS = [{ id: 'A1', title: 'a bearer token reaches a protected server; a missing scope and a missing token are refused' }] as const;
export type AuthRowId = (typeof AUTH_ROWS)[number]['id'];

export function authRowNotApplicable(c: Combination, row: string): string | undefined {
  if (!AUTH_ROWS.some((r) => r.id === row)) return undefined;
  if (c.transport === 'stdio') return 'authorization is an HTTP matter: a stdio server takes its credentials from the environment';
  if (c.server !== 'ours') return 'the SDK fixture servers are not OAuth resource servers';
  return undefined;
}

let running: Promise<RunningProtectedServer> | undefined;
afterAll(async () => {
  await (await running)?.close();
});

/** A tiny client surface per kind: call a tool (rejecting on a protocol or HTTP error) and close. */
interface AuthedClient {
  call(name: string, args: Record<string, unknown>): Promise<{ structuredContent?: unknown; isError?: unknown }>;
  close(): Promise<void>;
}

async function connectWith(t: RowContext, url: string, token: string | undefined): Promise<AuthedClient> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const era = t.combination.era;
  if (t.combination.client === 'ours') {
    const client = await t.ourClient().connect({ url, headers, protocolVersions: [era] });
    return { call: (name, args) => client.request('tools/call', { name, arguments: args }), close: () => client.close() };
  }
  if (t.combination.client === 'sdk1') {
    const client = new Sdk1Client({ name: 'matrix-sdk1-client', version: '1.0.0' });
    await client.connect(new Sdk1Http(new URL(url), { requestInit: { headers } }));
    return { call: async (name, args) => (await client.callTool({ name, arguments: args })) as { structuredContent?: unknown }, close: () => client.close() };
  }
  const client = new Sdk2Client({ name: 'matrix-sdk2-client', version: '2.0.0' }, (era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {}) as never);
  await client.connect(new Sdk2Http(new URL(url), { requestInit: { headers } }));
  return { call: (name, args) => client.callTool({ name, arguments: args }), close: () => client.close() };
}

async function rowA1(t: RowContext): Promise<void> {
  running ??= startProtectedServer();
  const server = await running;
  const client = await connectWith(t, server.url, server.readToken);
  try {
    const who = await client.call('whoami', {});
    expect(who.structuredContent).toEqual({ subject: 'test-service', clientId: 'test-service', scopes: ['weather:read'] });
    await expect(client.call('set_alert', { city: 'Faro' })).rejects.toThrow();
  } finally {
    await client.close();
  }
  await expect(connectWith(t, server.url, undefined)).rejects.toThrow();
}

export const AUTH_ROW_BODIES: Record<AuthRowId, (t: RowContext) => Promise<void>> = {
  A1: rowA1,
};
