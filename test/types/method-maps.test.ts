import { describe, expect, it } from 'vitest';
import type { KnownRevision } from '../../src/load/spec.js';
import { describeDiagnostics, typeCheck, typesFor, writeTempProject, type CompiledDiagnostic } from './helpers.js';

/**
 * Type tests as a fixture compiled by tsc: `expectTypeOf` mismatches and unused
 * `@ts-expect-error` lines are both compile errors, so "zero diagnostics" is the whole assertion.
 */

interface Case {
  /** What `tools/call` answers: 2026-07-28 adds InputRequiredResult (its CallToolResultResponse says so). */
  callResult: string;
  revision: KnownRevision;
  /** Valid tools/call params for the revision, as source text. */
  callParams: string;
  /** tools/list params: valid for tools/list, wrong for tools/call. */
  listParams: string;
  /** Does this revision have server-to-client requests? */
  serverRequests: boolean;
}

const META_2026 = `_meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }`;

const CASES: Case[] = [
  { revision: '2024-11-05', callResult: 'CallToolResult', callParams: `{ name: 'get_weather', arguments: { city: 'Paris' } }`, listParams: `{ cursor: 'next' }`, serverRequests: true },
  { revision: '2025-11-25', callResult: 'CallToolResult', callParams: `{ name: 'get_weather', arguments: { city: 'Paris' } }`, listParams: `{ cursor: 'next' }`, serverRequests: true },
  { revision: '2026-07-28', callResult: 'CallToolResult | InputRequiredResult', callParams: `{ name: 'get_weather', arguments: { city: 'Paris' }, ${META_2026} }`, listParams: `{ cursor: 'next', ${META_2026} }`, serverRequests: false },
];

function fixture(c: Case): string {
  const types = `./types-${c.revision}.js`;
  const serverSide = c.serverRequests
    ? `import type { CreateMessageResult, ServerRequests } from '${types}';
expectTypeOf<ServerRequests['sampling/createMessage']['result']>().toEqualTypeOf<CreateMessageResult>();
expectTypeOf<'sampling/createMessage'>().toExtend<ServerRequestMethod>();
// @ts-expect-error: sampling is asked by the server, never by the client
expectTypeOf<'sampling/createMessage'>().toExtend<ClientRequestMethod>();`
    : `expectTypeOf<ServerRequestMethod>().toBeNever();
// @ts-expect-error: this revision has no server-to-client requests at all
expectTypeOf<'sampling/createMessage'>().toExtend<ServerRequestMethod>();`;

  return `import { expectTypeOf } from 'vitest';
import type { CallToolRequest, CallToolResult, ${c.revision === '2026-07-28' ? 'InputRequiredResult, ' : ''}ClientNotificationMethod, ClientRequestMethod, ClientRequests, ListToolsResult, ServerRequestMethod } from '${types}';
import { ErrorCode, JSONRPC_VERSION, LATEST_PROTOCOL_VERSION } from '${types}';

declare function send<M extends ClientRequestMethod>(method: M, params: ClientRequests[M]['params']): Promise<ClientRequests[M]['result']>;

expectTypeOf<ClientRequests['tools/call']['result']>().toEqualTypeOf<${c.callResult}>();
expectTypeOf<ClientRequests['tools/call']['params']>().toEqualTypeOf<CallToolRequest['params']>();
expectTypeOf(send('tools/call', ${c.callParams})).resolves.toEqualTypeOf<${c.callResult}>();
expectTypeOf(send('tools/list', ${c.listParams})).resolves.toEqualTypeOf<ListToolsResult>();
expectTypeOf<'notifications/cancelled'>().toExtend<ClientNotificationMethod>();
expectTypeOf<typeof LATEST_PROTOCOL_VERSION>().toEqualTypeOf<'${c.revision}'>();
expectTypeOf<typeof JSONRPC_VERSION>().toEqualTypeOf<'2.0'>();
expectTypeOf<typeof ErrorCode.MethodNotFoundError>().toEqualTypeOf<-32601>();

// @ts-expect-error: tools/call is answered with CallToolResult, not ListToolsResult
expectTypeOf<ClientRequests['tools/call']['result']>().toEqualTypeOf<ListToolsResult>();
// @ts-expect-error: tools/list params (a cursor) are not tools/call params (a tool name)
void send('tools/call', ${c.listParams});
// @ts-expect-error: no such method
void send('tools/execute', ${c.callParams});
// @ts-expect-error: a tool name is a string
void send('tools/call', { ...${c.callParams}, name: 42 });
${serverSide}
`;
}

describe('method maps, as the compiler sees them', () => {
  // One program for all revisions: loading vitest's types once is most of the cost.
  let diagnostics: Promise<CompiledDiagnostic[]> | undefined;
  const compileAll = async (): Promise<CompiledDiagnostic[]> => {
    const files: Record<string, string> = {};
    for (const c of CASES) {
      files[`types-${c.revision}.ts`] = await typesFor(c.revision);
      files[`fixture-${c.revision}.ts`] = fixture(c);
    }
    const dir = writeTempProject(files);
    return typeCheck(dir, CASES.map((c) => `fixture-${c.revision}.ts`));
  };

  for (const c of CASES) {
    it(`${c.revision}: ClientRequests pairs methods with params and results; wrong pairs do not compile`, async () => {
      diagnostics ??= compileAll();
      const mine = (await diagnostics).filter((d) => d.file === `fixture-${c.revision}.ts` || d.file === `types-${c.revision}.ts`);
      expect(describeDiagnostics(mine)).toBe('');
    });
  }

  it('the harness fails on a false type assertion and on an unneeded @ts-expect-error', async () => {
    const wrong = `import { expectTypeOf } from 'vitest';
import type { ClientRequests, ListToolsResult } from './types-2025-11-25.js';
expectTypeOf<ClientRequests['tools/call']['result']>().toEqualTypeOf<ListToolsResult>();
// @ts-expect-error: nothing is wrong on the next line
const fine: string = 'fine';
export { fine };
`;
    const dir = writeTempProject({ 'types-2025-11-25.ts': await typesFor('2025-11-25'), 'fixture.ts': wrong });
    const diagnostics = typeCheck(dir, ['fixture.ts']);
    expect(diagnostics.map((d) => d.line)).toEqual([3, 4]);
    expect(diagnostics[1]!.code).toBe(2578); // Unused '@ts-expect-error' directive.
  });
});
