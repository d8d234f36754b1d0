/**
 * `client.server.serverInfo` at 2026-07-28, where server/discover names the server in its result's
 * `_meta` (`io.modelcontextprotocol/serverInfo`) instead of a `serverInfo` field: against our
 * generated weather server (HTTP and stdio) and against a server written with the official SDK 2.x.
 * The stateful revisions still read it from the initialize result.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../examples/weather/server/generated/server.js';
import { handlers } from '../../examples/weather/server/handlers/index.js';
import type { HttpListener } from '../../src/runtime/index.js';
import { openSession, type ConnectOptions } from '../../src/runtime/client/index.js';
import { build, tempDir } from '../server/support.js';
import { repoRoot } from './support.js';

const WEATHER = { name: 'weather', version: '1.0.0', title: 'Weather' };

async function serverOf(options: ConnectOptions): Promise<{ protocolVersion: string; serverInfo: unknown }> {
  const session = await openSession(options);
  try {
    return { protocolVersion: session.server.protocolVersion, serverInfo: session.server.serverInfo };
  } finally {
    await session.close();
  }
}

describe('our generated server', () => {
  let listener: HttpListener;
  const work = tempDir('client-server-info');
  let main: string;
  beforeAll(async () => {
    listener = await createServer(handlers, { logger: () => {} }).listenHttp({ port: 0, host: '127.0.0.1' });
    main = build(join(repoRoot, 'examples', 'weather', 'server'), join(work, 'build'));
  }, 300_000);
  afterAll(async () => {
    await listener?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('over Streamable HTTP, from server/discover at 2026-07-28 and from initialize at 2025-11-25', async () => {
    expect(await serverOf({ url: listener.url })).toEqual({ protocolVersion: '2026-07-28', serverInfo: WEATHER });
    expect(await serverOf({ url: listener.url, protocolVersions: ['2025-11-25'] })).toEqual({ protocolVersion: '2025-11-25', serverInfo: WEATHER });
  });

  it('over stdio at 2026-07-28', async () => {
    expect(await serverOf({ command: process.execPath, args: [main], stderr: 'ignore' })).toEqual({ protocolVersion: '2026-07-28', serverInfo: WEATHER });
  });
});

describe('an @modelcontextprotocol/server 2.x endpoint', () => {
  let child: ChildProcess | undefined;
  let url = '';
  beforeAll(async () => {
    child = spawn(process.execPath, [join(repoRoot, 'test/client/fixtures/sdk2-server.mjs')], { stdio: ['ignore', 'ignore', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let log = '';
      child!.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const match = /listening on (\S+)/.exec(log);
        if (match) resolve(match[1]!);
      });
      child!.once('exit', () => reject(new Error(`the SDK 2.x server exited:\n${log}`)));
    });
  }, 30_000);
  afterAll(() => {
    child?.kill();
  });

  it('names itself in server/discover’s _meta, and the client reports it', async () => {
    expect(await serverOf({ url })).toEqual({ protocolVersion: '2026-07-28', serverInfo: { name: 'sdk2-fixture', version: '2.0.0' } });
  });
});
