/**
 * The saved client snapshot is safe to review (issue 27, item 14): `.mcp-gen-snapshot.json` and
 * `--save-snapshot` write every invisible, line-separating or direction-changing character of the
 * server's text as a `\uXXXX` escape (the same JSON value), and a tool whose JSON names it twice is
 * left out with a warning naming both names, as is a tool only an answer's first `tools` list held. Live over stdio and HTTP: a hand-written 2025-11-25
 * server (duplicate keys need raw JSON), and `mcp-gen mock` of a hostile manifest at 2026-07-28.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '../../src/mock/index.js';
import { writeTempProject } from '../types/helpers.js';
import { cli, generate, repoRoot } from './support.js';

const HOSTILE_SERVER = join(repoRoot, 'test', 'client', 'fixtures', 'hostile-text-server.mjs');
/** The description the hostile server sends, as a value. */
const HOSTILE = 'line\u2028sep\u2029para \u202Eevil\u202C zero\u200Bwidth\uFEFF del\u007F c1\u0085 bell\u0007 iso\u2066late\u2069';
/** Every character that must not stand raw in a reviewed file (tab, LF and CR only as JSON's own whitespace). */
const RAW_INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/** The saved text holds no raw invisible character and reads back as the same values. */
function expectReviewable(text: string): { tools: { name: string; description?: string }[]; serverInfo: Record<string, unknown>; protocolVersion: string } {
  const raw = RAW_INVISIBLE.exec(text);
  expect(raw, raw ? `raw U+${raw[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at ${raw.index}` : '').toBeNull();
  expect(text).toContain('\\u2028');
  expect(text).toContain('\\u202E');
  return JSON.parse(text) as never;
}

const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) child.kill();
});

/** The hostile server over HTTP: resolves with its URL. */
async function hostileHttp(): Promise<string> {
  const child = spawn(process.execPath, [HOSTILE_SERVER, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  running.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

describe('a hand-written server (2025-11-25): raw separators, bidi and zero-width text; a tool named twice', () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(`${transport}: the saved snapshot escapes them, the values are unchanged, and the warning names both names`, async () => {
      const source = transport === 'stdio' ? ['--from-command', `'${process.execPath}' '${HOSTILE_SERVER}'`] : ['--from-url', await hostileHttp()];
      const project = writeTempProject({});
      const saved = join(project, 'saved.json');
      const { dir, run } = await generate([...source, '--save-snapshot', saved]);
      expect(run.code, run.err).toBe(0);
      for (const text of [readFileSync(join(dir, 'client', '.mcp-gen-snapshot.json'), 'utf8'), readFileSync(saved, 'utf8')]) {
        const snapshot = expectReviewable(text);
        expect(snapshot.protocolVersion).toBe('2025-11-25');
        expect(snapshot.serverInfo['title']).toBe(HOSTILE);
        expect(snapshot.tools.find((t) => t.name === 'sneaky')?.description).toBe(HOSTILE);
      }
      // JSON.parse kept "write_file"; a first-wins reader sees "read_file": both are named.
      const line = run.err.split('\n').find((l) => l.includes('left out: its JSON has a duplicate key "name"'));
      expect(line, run.err).toMatch(/tool "write_file" left out: its JSON has a duplicate key "name" \(at \/tools\/0\/name\), also naming it "read_file"/);
      // The escaped file is the same snapshot: generating from it again gives the same warning, and check finds the client current.
      // The list sent twice: the tool only the first one held is named too.
      expect(run.err).toMatch(/duplicate key "tools" in the server's JSON; the last value is used, leaving out "list_dir" that only the earlier value listed \(at \/result\/tools\)/);
      const again = await generate(['--from-snapshot', saved]);
      expect(again.run.err).toContain('also naming it "read_file"');
      expect(again.run.err).toContain('leaving out "list_dir"');
      const check = await cli(['check', join(dir, 'client')]);
      expect(check.code, check.err).toBe(0);
    }, 60_000);
  }
});

describe('mcp-gen mock of a hostile manifest (2026-07-28)', () => {
  const manifest = join(writeTempProject({}), 'hostile.yaml');
  writeFileSync(
    manifest,
    [
      'server: { name: hostile, version: 1.0.0 }',
      'tools:',
      '  - name: sneaky',
      `    description: "line\\Lsep\\Ppara \\u202Eevil\\u202C zero\\u200Bwidth\\uFEFF del\\x7F c1\\x85 bell\\a iso\\u2066late\\u2069"`,
      '    inputSchema: { type: object }',
      '',
    ].join('\n'),
  );
  for (const transport of ['stdio', 'http'] as const) {
    it(`${transport}: the saved snapshot escapes them`, async () => {
      const mock = transport === 'http' ? await startMock({ manifest, transport }) : undefined;
      try {
        const source = mock ? ['--from-url', mock.url] : ['--from-command', `'${process.execPath}' '${join(repoRoot, 'bin', 'mcp-gen.js')}' mock '${manifest}'`];
        const { dir, run } = await generate(source);
        expect(run.code, run.err).toBe(0);
        const snapshot = expectReviewable(readFileSync(join(dir, 'client', '.mcp-gen-snapshot.json'), 'utf8'));
        expect(snapshot.protocolVersion).toBe('2026-07-28');
        expect(snapshot.tools[0]?.description).toBe(HOSTILE);
      } finally {
        await mock?.close();
      }
    }, 60_000);
  }
});
