/**
 * The generated client against servers built with what people use (issue 39, item 2): fastmcp,
 * tmcp, mcp-use, the official SDK 2.x and 1.x (its strictest HTTP settings), the official
 * filesystem, memory, everything and pdf servers, and a server writing CRLF SSE a few bytes at a
 * time; over stdio and Streamable HTTP where each serves them. For each: `mcp-gen client` from the
 * live server, twice; the client type-checks in a project made by `tsc --init` (TypeScript 7);
 * a typed call goes through it; `mcp-gen check` finds it current and `mcp-gen diff` finds nothing
 * between the two generations. Each HTTP server is started once.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingBin, importClient, repoRoot } from '../client/support.js';
import { collect, freePort, startServer, type RunningServer } from './our-server.js';
import { installPeers, limiter, node22, peersDir } from './peers.js';
import { newTable, render, writeSection } from './table.js';

const STEPS = ['generate', 'type-check', 'call', 'check', 'diff', 'type-check (commonjs)'];
const servers = join(repoRoot, 'test', 'wild', 'servers');
const peerServers = join(peersDir, 'servers');
const peerPackage = (path: string): string => join(peersDir, 'node_modules', path);
const mcpGen = join(repoRoot, 'bin', 'mcp-gen.js');
const tsc7 = join(peersDir, 'node_modules', 'typescript-7', 'bin', 'tsc');

let work = '';
const data = (name: string): string => join(work, name);

/** How one server is reached: a command line (stdio) or an HTTP server started once. */
interface Subject {
  stdio?: () => { command: string; args: string[]; env?: Record<string, string> };
  http?: () => Promise<RunningServer>;
  /** The call, as TypeScript over `client` (the generated Client), returning what to check. */
  call: string;
  expected: (result: any) => void;
}

const sumOf = (result: any): number => result.sum ?? JSON.parse(result.content[0].text).sum;

const SUBJECTS: Record<string, Subject> = {
  fastmcp: {
    stdio: () => ({ command: node22, args: [join(peerServers, 'fastmcp.mjs')] }),
    http: () => startServer(node22, [join(peerServers, 'fastmcp.mjs'), '--http']),
    call: 'const result = await client.tools.add({ a: 2, b: 3 }); return result;',
    expected: (result) => expect(sumOf(result)).toBe(5),
  },
  tmcp: {
    stdio: () => ({ command: node22, args: [join(peerServers, 'tmcp.mjs')] }),
    http: () => startServer(node22, [join(peerServers, 'tmcp.mjs'), '--http']),
    call: 'const result = await client.tools.add({ a: 2, b: 3 }); const sum: number = result.sum; return { sum };',
    expected: (result) => expect(result).toEqual({ sum: 5 }),
  },
  'mcp-use': {
    http: () => startServer(node22, [join(peerServers, 'mcp-use.mjs')]),
    call: 'const result = await client.tools.add({ a: 2, b: 3 }); const sum: number = result.sum; return { sum };',
    expected: (result) => expect(result).toEqual({ sum: 5 }),
  },
  'sdk 2': {
    stdio: () => ({ command: process.execPath, args: [join(servers, 'sdk2.mjs')] }),
    http: () => startServer(process.execPath, [join(servers, 'sdk2.mjs'), '--http']),
    call: 'const result = await client.tools.add({ a: 2, b: 3 }); const sum: number = result.sum; return { sum };',
    expected: (result) => expect(result).toEqual({ sum: 5 }),
  },
  'sdk 1 (strictest)': {
    stdio: () => ({ command: process.execPath, args: [join(servers, 'sdk1.mjs')] }),
    http: () => startServer(process.execPath, [join(servers, 'sdk1.mjs'), '--http']),
    call: 'const result = await client.tools.add({ a: 2, b: 3 }); const sum: number = result.sum; return { sum };',
    expected: (result) => expect(result).toEqual({ sum: 5 }),
  },
  filesystem: {
    stdio: () => ({ command: node22, args: [peerPackage('@modelcontextprotocol/server-filesystem/dist/index.js'), data('files')] }),
    call: 'return await client.tools.listAllowedDirectories({});',
    expected: (result) => expect(JSON.stringify(result)).toContain('files'),
  },
  memory: {
    stdio: () => ({ command: node22, args: [peerPackage('@modelcontextprotocol/server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: data('memory.jsonl') } }),
    call: 'return await client.tools.readGraph({});',
    expected: (result) => expect(JSON.stringify(result)).toContain('entities'),
  },
  everything: {
    stdio: () => ({ command: process.execPath, args: [everythingBin, 'stdio'] }),
    http: async () => {
      const port = await freePort();
      const args = ['--import', join(servers, 'loopback.mjs'), everythingBin, 'streamableHttp'];
      return startServer(process.execPath, args, { env: { PORT: String(port) }, url: `http://127.0.0.1:${port}/mcp` });
    },
    call: "const result = await client.tools.echo({ message: 'hi' }); return result;",
    expected: (result) => expect(JSON.stringify(result)).toContain('Echo: hi'),
  },
  pdf: {
    stdio: () => ({ command: node22, args: [peerPackage('@modelcontextprotocol/server-pdf/dist/index.js'), '--stdio', data('files')] }),
    http: async () => {
      const port = await freePort();
      const args = ['--import', join(servers, 'loopback.mjs'), peerPackage('@modelcontextprotocol/server-pdf/dist/index.js'), data('files')];
      return startServer(node22, args, { env: { PORT: String(port) }, url: `http://127.0.0.1:${port}/mcp` });
    },
    call: 'return await client.tools.listPdfs({});',
    expected: (result) => expect(result).toBeTypeOf('object'),
  },
  'crlf sse in small chunks': {
    http: () => startServer(process.execPath, [join(servers, 'crlf-sse.mjs')]),
    call: "const result = await client.tools.echo({ text: 'hé' }); const text: string = result.text; return { text };",
    expected: (result) => expect(result).toEqual({ text: '“hé” 🌍' }),
  },
};

const table = newTable('The generated client against servers people build', ['server', 'transport'], STEPS);
const threeAtATime = limiter(3);
const http = new Map<string, Promise<RunningServer>>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'mcp-gen-wild-servers-'));
  mkdirSync(data('files'));
  await installPeers();
}, 300_000);

afterAll(async () => {
  for (const server of http.values()) await server.then((running) => running.close(), () => undefined);
  if (work) rmSync(work, { recursive: true, force: true });
  const file = writeSection('servers', table);
  process.stdout.write(`\n${render(table)}\n(written to ${file})\n`);
});

/** The --from-url / --from-command arguments (and --env) of one server over one transport. */
async function source(subject: Subject, name: string, transport: string): Promise<{ args: string[]; location: Record<string, unknown> }> {
  if (transport === 'http') {
    if (!http.has(name)) http.set(name, subject.http!());
    const { url } = await http.get(name)!;
    return { args: ['--from-url', url], location: { url } };
  }
  const { command, args, env = {} } = subject.stdio!();
  const flags = ['--from-command', [command, ...args].join(' '), ...Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`])];
  return { args: flags, location: { command, args, env: { ...process.env, ...env }, stderr: 'ignore' } };
}

/**
 * A user's project: @types/node and the tsconfig.json `tsc --init` writes, in an ES module package
 * or (`commonjs`) the package `npm init` makes, which has no "type" and so is CommonJS.
 */
async function project(dir: string, kind: 'module' | 'commonjs' = 'module'): Promise<void> {
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'));
  writeFileSync(join(dir, 'package.json'), kind === 'module' ? '{ "private": true, "type": "module" }\n' : '{ "private": true }\n');
  const init = await collect(tsc7, ['--init'], { cwd: dir });
  if (init.code !== 0) throw new Error(`tsc --init: ${init.output}`);
}

/** Type-checks the client and call.ts with the project's own tsconfig.json. */
async function typeCheck(dir: string, call: string): Promise<void> {
  writeFileSync(join(dir, 'call.ts'), `import type { Client } from './client/client.js';\n\nexport async function call(client: Client) {\n  ${call}\n}\n`);
  const checked = await collect(tsc7, ['-p', '.', '--noEmit'], { cwd: dir });
  if (checked.code !== 0) throw new Error(`tsc: ${checked.output.split('\n').slice(0, 15).join('\n')}`);
}

const combinations = Object.entries(SUBJECTS).flatMap(([name, subject]) =>
  (['stdio', 'http'] as const).filter((transport) => (transport === 'stdio' ? subject.stdio : subject.http) !== undefined).map((transport) => ({ name, subject, transport })),
);

describe.concurrent('the generated client against servers people build', () => {
  it.each(combinations.map((c) => [`${c.name} over ${c.transport}`, c] as const))('%s', async (_, { name, subject, transport }) => {
    const outcomes: Record<string, { ok: boolean; detail: string }> = {};
    table.rows.push({ key: [name, transport], outcomes });
    const step = async (label: string, body: () => Promise<void>): Promise<void> => {
      try {
        await body();
        outcomes[label] = { ok: true, detail: '' };
      } catch (error) {
        outcomes[label] = { ok: false, detail: error instanceof Error ? error.message : String(error) };
        throw error;
      }
    };
    await threeAtATime(async () => {
      const dir = join(work, `${name}-${transport}`.replace(/[^a-z0-9-]+/gi, '-'));
      const { args, location } = await source(subject, name, transport);
      const generateOnce = async (out: string, snapshot: string): Promise<void> => {
        const run = await collect(process.execPath, [mcpGen, 'client', ...args, '-o', out, '--save-snapshot', snapshot, '--no-version-banner'], { timeoutMs: 120_000 });
        if (run.code !== 0) throw new Error(`mcp-gen client exited ${run.code}: ${run.output.trim()}`);
      };
      await step('generate', async () => {
        // Two independent generations from the live server, at once.
        await Promise.all([generateOnce(join(dir, 'client'), join(dir, 'first.json')), generateOnce(join(dir, 'again', 'client'), join(dir, 'second.json'))]);
      });
      await step('type-check', async () => {
        await project(dir);
        await typeCheck(dir, subject.call);
      });
      await step('call', async () => {
        const module = await importClient<{ connect(options: object): Promise<{ close(): Promise<void> }> }>(dir);
        const usage = (await import(join(dir, 'call.ts'))) as { call(client: unknown): Promise<unknown> };
        const client = await module.connect(location);
        try {
          subject.expected(await usage.call(client));
        } finally {
          await client.close();
        }
      });
      await step('check', async () => {
        const run = await collect(process.execPath, [mcpGen, 'check', join(dir, 'client')]);
        if (run.code !== 0) throw new Error(`mcp-gen check exited ${run.code}: ${run.output.trim()}`);
      });
      await step('diff', async () => {
        const run = await collect(process.execPath, [mcpGen, 'diff', join(dir, 'first.json'), join(dir, 'second.json'), '--fail-on', 'any']);
        if (run.code !== 0) throw new Error(`mcp-gen diff exited ${run.code}: ${run.output.trim()}`);
      });
      // In the CommonJS package `npm init` makes (last: the other steps stand alone), generation says
      // in one line what to run; run as said, the project type-checks.
      await step('type-check (commonjs)', async () => {
        const cjs = join(dir, 'cjs');
        await project(cjs, 'commonjs');
        const run = await collect(process.execPath, [mcpGen, 'client', '--from-snapshot', join(dir, 'second.json'), '-o', join(cjs, 'client'), '--no-version-banner'], { timeoutMs: 120_000 });
        if (run.code !== 0) throw new Error(`mcp-gen client exited ${run.code}: ${run.output.trim()}`);
        if (!run.output.includes('npm pkg set type=module')) throw new Error(`no advice for the CommonJS project: ${run.output.trim()}`);
        const fixed = await collect('npm', ['pkg', 'set', 'type=module'], { cwd: cjs });
        if (fixed.code !== 0) throw new Error(`npm pkg set: ${fixed.output}`);
        await typeCheck(cjs, subject.call);
      });
    });
  }, 240_000);
});
