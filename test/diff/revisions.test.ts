/**
 * Revision against revision: methods and definitions, classified for an existing client and an
 * existing server, from the official schemas committed under schema/mcp-spec/.
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/diff/finding.js';
import { run } from './helpers.js';

async function revisionFindings(oldRevision: string, newRevision: string): Promise<{ code: number; findings: Finding[] }> {
  const result = await run('diff', oldRevision, newRevision, '--json');
  expect(result.err).toEqual([]);
  return { code: result.code, findings: JSON.parse(result.out.join('\n')).findings as Finding[] };
}

describe('mcp-gen diff 2025-11-25 2026-07-28', () => {
  it('lists the removed initialize, ping and logging/setLevel and the added server/discover and subscriptions/listen', async () => {
    const { code, findings } = await revisionFindings('2025-11-25', '2026-07-28');
    expect(code).toBe(1);
    const methods = findings.filter((f) => f.item.startsWith('request ')).map((f) => ({ kind: f.kind, item: f.item, impact: f.impact, pointer: f.pointer }));
    expect(methods).toEqual(
      expect.arrayContaining([
        // A removed request breaks whoever sent it; an added one whoever must now answer it.
        { kind: 'removed', item: 'request initialize (client → server)', impact: { client: 'breaking', server: 'compatible' }, pointer: '/$defs/InitializeRequest' },
        { kind: 'removed', item: 'request ping (client → server)', impact: { client: 'breaking', server: 'compatible' }, pointer: '/$defs/PingRequest' },
        { kind: 'removed', item: 'request ping (server → client)', impact: { client: 'compatible', server: 'breaking' }, pointer: '/$defs/PingRequest' },
        { kind: 'removed', item: 'request logging/setLevel (client → server)', impact: { client: 'breaking', server: 'compatible' }, pointer: '/$defs/SetLevelRequest' },
        { kind: 'added', item: 'request server/discover (client → server)', impact: { client: 'compatible', server: 'breaking' }, pointer: '/$defs/DiscoverRequest' },
        { kind: 'added', item: 'request subscriptions/listen (client → server)', impact: { client: 'compatible', server: 'breaking' }, pointer: '/$defs/SubscriptionsListenRequest' },
      ]),
    );
    for (const f of findings) expect(f.severity).toBe(f.impact!.client === 'breaking' || f.impact!.server === 'breaking' ? 'breaking' : f.impact!.client === 'compatible' || f.impact!.server === 'compatible' ? 'compatible' : 'docs');
  });

  it('classifies a definition by who sends it: a widened result breaks clients, not servers', async () => {
    const { findings } = await revisionFindings('2025-11-25', '2026-07-28');
    const structured = findings.find((f) => f.pointer === '/$defs/CallToolResult/properties/structuredContent/type');
    expect(structured).toMatchObject({ kind: 'type', severity: 'breaking', impact: { client: 'breaking', server: 'compatible' } });
    const alternatives = findings.find((f) => f.item === 'request tools/call (client → server)' && f.kind === 'result-alternatives');
    expect(alternatives).toMatchObject({ impact: { client: 'breaking', server: 'compatible' }, to: ['InputRequiredResult'] });
  });

  it('a new content type in a union a server sends breaks clients; in one a client sends, servers', async () => {
    const { findings } = await revisionFindings('2024-11-05', '2025-03-26');
    // draft-07 revisions keep their own container name in pointers.
    expect(findings.find((f) => f.pointer === '/definitions/CallToolResult/properties/content/items/anyOf/2')).toMatchObject({ impact: { client: 'breaking', server: 'compatible' } });
    expect(findings.find((f) => f.pointer === '/definitions/CreateMessageResult/properties/content/anyOf/2')).toMatchObject({ impact: { client: 'compatible', server: 'breaking' } });
  });

  it('a revision against itself: no differences, exit 0 even with --fail-on any', async () => {
    const result = await run('diff', '2026-07-28', '2026-07-28', '--fail-on', 'any');
    expect(result.code).toBe(0);
    expect(result.out.at(-1)).toBe('no differences.');
  });
});
