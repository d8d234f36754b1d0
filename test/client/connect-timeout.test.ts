/**
 * A server that starts but never answers the handshake: `connect` rejects with RequestTimeoutError
 * after `connectTimeoutMs` (default 60 s) instead of hanging, over stdio and over HTTP, and the
 * spawned server is not left behind. `server/discover` waits at most as long, then `initialize`.
 * The time a sign-in takes is not counted (a transport that signs in for longer than the timeout).
 */
import { describe, expect, it } from 'vitest';
import { ClientSession, openSession, RequestTimeoutError, type ClientTransport } from '../../src/runtime/client/index.js';
import { loopbackServer } from './loopback-server.js';

const { listen } = loopbackServer();

/** Reads every line of stdin, answers none, writes its pid to stderr and lives until stdin ends. */
const SILENT_SERVER = `
process.stderr.write('pid ' + process.pid + '\\n');
process.stdin.on('data', () => {});
process.stdin.on('end', () => process.exit(0));
`;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('connect against a server that never answers', () => {
  it('stdio: rejects after connectTimeoutMs, for each revision offered, and ends the process', async () => {
    for (const protocolVersions of [['2025-11-25'], ['2026-07-28', '2025-11-25']]) {
      let pid = 0;
      const started = Date.now();
      const error = await openSession({
        command: process.execPath,
        args: ['-e', SILENT_SERVER],
        stderr: (text: string) => {
          const match = /pid (\d+)/.exec(text);
          if (match) pid = Number(match[1]);
        },
        protocolVersions,
        connectTimeoutMs: 400,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RequestTimeoutError);
      expect((error as Error).message).toBe('initialize did not answer within 400 ms');
      // discover (2026-07-28 offered) waits at most as long as initialize does.
      expect(Date.now() - started).toBeLessThan(protocolVersions.length * 400 + 5_000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(protocolVersions.length * 400 - 50);
      await expect.poll(() => pid !== 0 && !alive(pid), { timeout: 5_000 }).toBe(true);
    }
  });

  it('HTTP: rejects after connectTimeoutMs when POSTs are never answered', async () => {
    let posts = 0;
    const url = await listen((req) => {
      if (req.method === 'POST') posts++;
    });
    const error = await openSession({ url, protocolVersions: ['2025-11-25'], connectTimeoutMs: 300 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).method).toBe('initialize');
    expect(posts).toBe(1);
  });

  it('does not count a sign-in: the wait starts again when it ends, and the same request is answered', async () => {
    let signIn: Promise<unknown> | undefined;
    const sent: string[] = [];
    let receive: (message: unknown, text: string) => void = () => {};
    const transport: ClientTransport = {
      start: async (deliver) => {
        receive = deliver;
      },
      send: async (text, info) => {
        sent.push(info.method);
        if (info.method !== 'initialize') return;
        // A 401, then a person signing in for three times the timeout; then this request is answered.
        signIn = new Promise((resolve) => setTimeout(resolve, 600));
        await signIn;
        signIn = undefined;
        const { id } = JSON.parse(text) as { id: number };
        const answer = { jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } };
        receive(answer, JSON.stringify(answer));
      },
      cancel: async () => {},
      setProtocolVersion: () => {},
      signingIn: () => signIn,
      close: async () => {},
    };
    const session = new ClientSession(transport, { protocolVersions: ['2025-11-25'], connectTimeoutMs: 200 });
    expect((await session.connect()).protocolVersion).toBe('2025-11-25');
    expect(sent).toEqual(['initialize', 'notifications/initialized']);
  });
});
