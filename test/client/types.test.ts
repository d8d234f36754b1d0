import { describe, expect, it } from 'vitest';
import { describeDiagnostics } from '../types/helpers.js';
import { checkWith, generate, read } from './support.js';

const manifest = 'test/fixtures/client/typed/manifest.yaml';

describe('generated client types', () => {
  it('compiles strictly, types inputs, outputs, nested objects, arrays, enums, unions and recursive refs', async () => {
    const { dir, run } = await generate([manifest]);
    expect(run.code, run.err).toBe(0);
    const usage = `import { expectTypeOf } from 'vitest';
import { connect, type Client } from './client/client.js';
import type * as P from './client/protocol.js';
import type * as P26 from './client/protocol-2026-07-28.js';

export async function use(client: Client<'2025-11-25'>): Promise<void> {
  const out = await client.tools.search({ query: 'q', filters: { kind: 'book', tags: ['a'] }, limit: 3 });
  expectTypeOf(out.items).toEqualTypeOf<{ id: string; score: number }[]>();
  expectTypeOf(out.cursor).toEqualTypeOf<string | number | undefined>();
  expectTypeOf(out.tree.name).toEqualTypeOf<string>();
  expectTypeOf(out.tree.children[0]!.children[0]!.name).toEqualTypeOf<string>();
  const byWire = await client.callTool('search', { query: 'x' });
  expectTypeOf(byWire).toEqualTypeOf(out);
  // Any wire name, a tool added since generation included: unknown until the app checks it.
  const added = await client.callToolByName('added_later', { any: 1 }, { _meta: { traceparent: 't' } });
  expectTypeOf(added).toEqualTypeOf<unknown>();
  expectTypeOf(await client.callToolByName('search')).toEqualTypeOf<unknown>();
  const plain = await client.tools.plain();
  expectTypeOf(plain).toEqualTypeOf<P.CallToolResult>();
  await client.tools.regionEcho({ region: 'eu' });
  await client.prompts.greet({ who: 'Ann' });
  const ping = await client.request('ping', undefined);
  expectTypeOf(ping).toEqualTypeOf<P.ClientRequests['ping']['result']>();
}

// request() follows the revisions a client may negotiate.
export async function eras(): Promise<void> {
  const modern = await connect({ command: 'node', args: ['server.js'], protocolVersions: ['2026-07-28'] });
  expectTypeOf(modern).toEqualTypeOf<Client<'2026-07-28'>>();
  expectTypeOf(modern.server.protocolVersion).toEqualTypeOf<'2026-07-28'>();
  const discovered = await modern.request('server/discover', {});
  expectTypeOf(discovered).toEqualTypeOf<P26.DiscoverResult>();
  expectTypeOf(await modern.request('tools/call', { name: 'x' })).toEqualTypeOf<P26.CallToolResult | P26.InputRequiredResult>();
  // @ts-expect-error 2026-07-28 has no ping
  await modern.request('ping', undefined);
  const stateful = await connect({ command: 'node', args: ['server.js'], protocolVersions: ['2025-11-25', '2025-06-18'] });
  expectTypeOf(await stateful.request('ping', undefined)).toEqualTypeOf<P.ClientRequests['ping']['result']>();
  // @ts-expect-error server/discover is 2026-07-28 only
  await stateful.request('server/discover', {});
  const any = await connect({ command: 'node', args: ['server.js'] });
  expectTypeOf(any).toEqualTypeOf<Client>();
  expectTypeOf(await any.request('tools/list', {})).toEqualTypeOf<P.ListToolsResult | P26.ListToolsResult>();
  // @ts-expect-error ping is not in every revision the client may negotiate
  await any.request('ping', undefined);
}

export async function wrong(client: Client): Promise<void> {
  // @ts-expect-error query must be a string
  await client.tools.search({ query: 1 });
  // @ts-expect-error query is required
  await client.tools.search({ limit: 1 });
  // @ts-expect-error kind is an enum
  await client.tools.search({ query: 'q', filters: { kind: 'music' } });
  // @ts-expect-error no such property
  await client.tools.search({ query: 'q', extra: true });
  // @ts-expect-error tags are strings
  await client.tools.search({ query: 'q', filters: { kind: 'book', tags: [1] } });
  const out = await client.tools.search({ query: 'q' });
  // @ts-expect-error the output has no such field
  out.nothing;
  // @ts-expect-error who is required
  await client.prompts.greet({ tone: 'warm' });
  // @ts-expect-error no such tool
  await client.callTool('missing', {});
  // @ts-expect-error unknown method
  await client.request('tools/nothing', {});
}

export const start = (): Promise<Client> => connect({ command: 'node', args: ['server.js'] });
`;
    const diagnostics = checkWith(dir, { 'usage.ts': usage });
    expect(describeDiagnostics(diagnostics)).toBe('');
    const types = read(dir, 'client/types.ts');
    expect(types).not.toMatch(/Record<string, unknown>/);
  }, 120_000);
});
