/**
 * The generated client against a server built with fastmcp (SDK 1.x underneath, served through
 * mcp-proxy) over Streamable HTTP, on 127.0.0.1 (issue 38 item 4). mcp-proxy refuses any request
 * whose `MCP-Protocol-Version` is 2026-07-28 with 400/-32000, initialize included: `client
 * --from-url` must still succeed (the fallback initialize sends no revision header), and the
 * generated client must call a tool. fastmcp is pinned in test/client/wild (its own package.json
 * and lockfile, installed here with `npm ci --prefix`, from the npm cache when warm).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, importClient, repoRoot } from './support.js';

const WILD = join(repoRoot, 'test', 'client', 'wild');

type FastClient = {
  connect(options: object): Promise<{
    server: { protocolVersion: string; serverInfo?: { name?: string } };
    tools: {
      add(input: { a: number; b: number }): Promise<{ content: { type: string; text: string }[] }>;
      shout(input: { text: string }): Promise<{ content: { type: string; text: string }[] }>;
    };
    close(): Promise<void>;
  }>;
};

let fastmcp: ChildProcess | undefined;
let url = '';

beforeAll(async () => {
  if (!existsSync(join(WILD, 'node_modules', 'fastmcp', 'package.json'))) {
    execFileSync('npm', ['ci', '--prefix', WILD, '--no-audit', '--no-fund', '--prefer-offline'], { stdio: 'pipe' });
  }
  const child = spawn(process.execPath, [join(WILD, 'fastmcp-server.mjs'), '0'], { cwd: WILD, stdio: ['ignore', 'pipe', 'pipe'] });
  fastmcp = child;
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const port = /listening (\d+)/.exec(out)?.[1];
      if (port !== undefined) resolve(`http://127.0.0.1:${port}/mcp`);
    });
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (err += text));
    child.once('exit', (code) => reject(new Error(`fastmcp exited (${code}): ${err}`)));
  });
}, 240_000);

afterAll(() => {
  fastmcp?.kill();
});

describe('fastmcp over Streamable HTTP', () => {
  it('client --from-url succeeds, and the generated client calls its tools at 2025-11-25', async () => {
    const { dir, run } = await generate(['--from-url', url]);
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain('"wild-fastmcp" speaks 2025-11-25');
    const { connect } = await importClient<FastClient>(dir);
    const client = await connect({ url });
    try {
      expect(client.server.protocolVersion).toBe('2025-11-25');
      expect(client.server.serverInfo?.name).toBe('wild-fastmcp');
      expect((await client.tools.add({ a: 2, b: 40 })).content).toEqual([{ type: 'text', text: '42' }]);
      expect((await client.tools.shout({ text: 'é ok' })).content).toEqual([{ type: 'text', text: 'É OK' }]);
    } finally {
      await client.close();
    }
  });

  it('connect({ url, protocolVersions }) limits the revisions offered', async () => {
    const { dir, run } = await generate(['--from-url', url, '--protocol-version', '2025-06-18']);
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain('speaks 2025-06-18');
    const { connect } = await importClient<FastClient>(dir);
    const client = await connect({ url, protocolVersions: ['2025-06-18'] });
    try {
      expect(client.server.protocolVersion).toBe('2025-06-18');
      expect((await client.tools.add({ a: 1, b: 1 })).content).toEqual([{ type: 'text', text: '2' }]);
    } finally {
      await client.close();
    }
  });
});
