/**
 * `mcp-gen client --protocol-version`: the revisions offered to a live server. What it refuses
 * (exit 2, before anything is read); that it narrows what is offered is shown against real servers
 * in sdk1-strict-http.test.ts and wild-servers.slow.test.ts. `connect`'s `protocolVersions` refuses
 * revisions the runtime does not speak.
 */
import { describe, expect, it } from 'vitest';
import { ClientSession } from '../../src/runtime/client/session.js';
import { StdioClientTransport } from '../../src/runtime/client/stdio.js';
import { cli } from './support.js';

describe('--protocol-version', () => {
  it('an unknown revision is exit 2, naming the ones the client speaks', async () => {
    const run = await cli(['client', '--from-url', 'http://127.0.0.1:9/mcp', '--protocol-version', '2025-13-01', '-o', 'unused']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('unknown revision "2025-13-01"');
    expect(run.err).toContain('2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05');
  });

  it('without a live server it is exit 2', async () => {
    const run = await cli(['client', 'test/fixtures/client/typed/manifest.yaml', '--protocol-version', '2025-11-25', '-o', 'unused']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('needs --from-url or --from-command');
  });

  it('connect refuses a revision the runtime does not speak, before starting anything', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', 'setTimeout(() => {}, 10000)'] });
    const session = new ClientSession(transport, { protocolVersions: ['1999-01-01'] });
    await expect(session.connect()).rejects.toThrow('this client does not speak 1999-01-01');
    await session.close();
  });
});
