/**
 * `mcp-gen diff` through main(argv, io): exit codes for --fail-on, bad input, the JSON shape,
 * the human output, and byte-identical output for the same inputs.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffSides } from '../../src/diff/diff.js';
import { classifySide, loadSide } from '../../src/diff/load-side.js';
import { renderHuman, wantsColour } from '../../src/diff/render-human.js';
import type { DiffReport } from '../../src/diff/finding.js';
import { manifest, run, snapshot, tempDir, writeJson } from './helpers.js';

const str = { type: 'string' };
const withTool = (properties: object, required: string[] = []) => manifest({ tools: [{ name: 't', description: 'Does t.', inputSchema: { type: 'object', properties, required } }] });

/** old → new with one breaking change (a new required property); old → docs with a description change only. */
function sides() {
  const dir = tempDir();
  const old = writeJson(dir, 'old.json', withTool({ a: str }));
  const breaking = writeJson(dir, 'breaking.json', withTool({ a: str, b: str }, ['b']));
  const compatible = writeJson(dir, 'compatible.json', withTool({ a: str, b: str }));
  const docs = writeJson(dir, 'docs.json', withTool({ a: { ...str, description: 'the a' } }));
  return { dir, old, breaking, compatible, docs };
}

describe('mcp-gen diff: --fail-on and exit codes', () => {
  const s = sides();
  it.each([
    { what: 'breaking change, default (--fail-on breaking)', args: [s.old, s.breaking], code: 1 },
    { what: 'breaking change, --fail-on none', args: [s.old, s.breaking, '--fail-on', 'none'], code: 0 },
    { what: 'breaking change, --fail-on any', args: [s.old, s.breaking, '--fail-on', 'any'], code: 1 },
    { what: 'compatible change, default', args: [s.old, s.compatible], code: 0 },
    { what: 'compatible change, --fail-on any', args: [s.old, s.compatible, '--fail-on', 'any'], code: 1 },
    { what: 'docs change, default', args: [s.old, s.docs], code: 0 },
    { what: 'docs change, --fail-on any', args: [s.old, s.docs, '--fail-on', 'any'], code: 1 },
    { what: 'no change, --fail-on any', args: [s.old, s.old, '--fail-on', 'any'], code: 0 },
    { what: 'breaking change with --json, default', args: [s.old, s.breaking, '--json'], code: 1 },
  ])('$what → exit $code', async ({ args, code }) => {
    const result = await run('diff', ...args);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(code);
  });

  it('an unknown --fail-on value is a usage error, exit 2', async () => {
    const result = await run('diff', s.old, s.old, '--fail-on', 'sometimes');
    expect(result.code).toBe(2);
    expect(result.err.join('\n')).toMatch(/Allowed choices are breaking, any, none/);
  });
});

describe('mcp-gen diff: bad input exits 2 with a clear message and prints no report', () => {
  const s = sides();
  const badFile = (name: string, text: string): string => {
    const path = join(s.dir, name);
    writeFileSync(path, text);
    return path;
  };
  it.each([
    ['a missing file', [join(s.dir, 'nope.yaml'), s.old], /nope\.yaml: no such file — a side is a manifest/],
    ['an unknown revision', ['2023-01-01', '2025-11-25'], /2023-01-01: unknown revision "2023-01-01"/],
    ['a server against a revision', [s.old, '2025-11-25'], /mcp-gen diff: cannot compare the server .*old\.json \(manifest\) with the protocol revision 2025-11-25/],
    ['a revision against a live server (nothing is contacted)', ['2025-11-25', 'http://127.0.0.1:9/mcp'], /cannot compare the protocol revision 2025-11-25 with the server http:\/\/127\.0\.0\.1:9\/mcp \(url\)/],
    ['an empty cmd: side', ['cmd:', s.old], /cmd:: empty command/],
    ['a malformed --header', [s.old, s.old, '--header', 'nocolon'], /--header: expected 'Name: value'/],
    ['a folder without schema.json given as a side', [s.dir, s.old], /: a folder without schema\.json — a side is/],
    ['a snapshot that is not JSON', [badFile('truncated.json', '{"tools": ['), s.old], /truncated\.json:\d+:\d+: invalid JSON/],
    ['a manifest that is not YAML', [badFile('broken.yaml', 'server: {name: x\n'), s.old], /broken\.yaml:2:1: YAML syntax error/],
  ])('%s', async (_what, args, message) => {
    const result = await run('diff', ...(args as string[]));
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err[0]).toMatch(message);
    expect(result.err).toHaveLength(2); // the problem, then the one-line count
  });

  it('an invalid manifest reports its problems with positions', async () => {
    const dir = tempDir();
    const broken = writeJson(dir, 'broken.json', { server: { name: 'x' }, tools: [{ name: 'bad name', inputSchema: { type: 'string' } }] });
    const result = await run('diff', broken, s.old);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err.filter((l) => l.startsWith('error: ')).length).toBeGreaterThanOrEqual(2);
  });

  it('a snapshot nested deeper than mcp-gen compares is refused, however deep', async () => {
    const dir = tempDir();
    const sideAt = (levels: number): string => {
      // Built as text: the value is deeper than JSON.stringify likes.
      const schema = `${'{"type":"object","properties":{"x":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`;
      const text = JSON.stringify(snapshot({ tools: [{ name: 't', inputSchema: { type: 'object' } }] })).replace('{"type":"object"}', schema);
      const path = join(dir, `deep-${levels}.json`);
      writeFileSync(path, text);
      return path;
    };
    for (const levels of [300, 20_000]) {
      const result = await run('diff', sideAt(levels), sideAt(levels));
      expect(result.code).toBe(2);
      expect(result.out).toEqual([]);
      expect(result.err[0]).toMatch(new RegExp(`deep-${levels}\\.json: nested deeper than 256 levels \\(at /tools/0/inputSchema/properties/x/`));
    }
  });

  it('a JSON file that is neither a manifest nor a snapshot', async () => {
    const dir = tempDir();
    const other = writeJson(dir, 'package.json', { name: 'pkg', version: '1.0.0' });
    const result = await run('diff', other, s.old);
    expect(result.code).toBe(2);
    expect(result.err[0]).toMatch(/package\.json/);
  });
});

describe('mcp-gen diff: live sides that cannot be reached exit 3', () => {
  it('a URL nobody listens on', async () => {
    const port = await closedPort();
    const s = sides();
    const result = await run('diff', `http://127.0.0.1:${port}/mcp`, s.old);
    expect(result.code).toBe(3);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^error: http://127\\.0\\.0\\.1:${port}/mcp: cannot introspect the server: `));
  });

  it('a command that does not exist', async () => {
    const s = sides();
    const result = await run('diff', s.old, 'cmd:/nonexistent/mcp-server --stdio');
    expect(result.code).toBe(3);
    expect(result.out).toEqual([]);
    expect(result.err).toEqual([expect.stringMatching(/^error: cmd:\/nonexistent\/mcp-server --stdio: cannot introspect the server: /)]);
  });
});

describe('mcp-gen diff: output', () => {
  it('--json has the documented shape', async () => {
    const s = sides();
    const result = await run('diff', s.old, s.breaking, '--json', '--fail-on', 'none');
    const report = JSON.parse(result.out.join('\n'));
    expect(Object.keys(report)).toEqual(['old', 'new', 'findings', 'summary']);
    expect(report.old).toEqual({ kind: 'manifest', source: s.old });
    expect(report.findings).toEqual([
      { kind: 'property-added', severity: 'breaking', item: 'tool t', pointer: '/tools/t/inputSchema/properties/b', message: 'input property "b" added (required)' },
    ]);
    expect(report.summary).toEqual({ breaking: 1, compatible: 0, docs: 0, total: 1 });
  });

  it('human output: grouped by item, breaking items first, a summary line, no colour when not a terminal', async () => {
    const dir = tempDir();
    const old = writeJson(dir, 'old.json', manifest({ tools: [{ name: 'a', description: 'one', inputSchema: { type: 'object' } }, { name: 'z', inputSchema: { type: 'object', properties: { x: { enum: [1, 2] } } } }] }));
    const next = writeJson(dir, 'new.json', manifest({ tools: [{ name: 'a', description: 'two', inputSchema: { type: 'object' } }, { name: 'z', inputSchema: { type: 'object', properties: { x: { enum: [1, 2, 3] }, y: str } } }] }));
    const result = await run('diff', old, next, '--fail-on', 'none');
    expect(result.out).toEqual([
      `mcp-gen diff: manifest ${old} → manifest ${next}`,
      '',
      'tool z',
      '  compatible  enum value 3 added  /tools/z/inputSchema/properties/x/enum',
      '  compatible  input property "y" added (optional)  /tools/z/inputSchema/properties/y',
      '',
      'tool a',
      '  docs        description changed  /tools/a/description',
      '',
      '0 breaking, 2 compatible, 1 docs (3 findings).',
    ]);
    expect(result.out.join('\n')).not.toMatch(/\u001b/);
  });

  it("says on stderr what a snapshot's unusable entries were, and compares the rest", async () => {
    const dir = tempDir();
    const tools = [{ name: 't', inputSchema: { type: 'object' } }];
    const old = writeJson(dir, 'old.json', snapshot({ tools }));
    const next = writeJson(dir, 'new.json', snapshot({ tools: [...tools, { name: 'broken', inputSchema: 'nope' }] }));
    const result = await run('diff', old, next, '--json');
    expect(result.code).toBe(0);
    expect(result.err).toEqual([`warning: ${next}: tool "broken" left out: its inputSchema is not a JSON Schema object (at /tools/1)`]);
    expect(JSON.parse(result.out.join('\n')).findings).toEqual([]);
  });

  it('no differences', async () => {
    const s = sides();
    const result = await run('diff', s.old, s.old);
    expect(result.out.at(-1)).toBe('no differences.');
    expect(result.code).toBe(0);
  });

  it('is byte-identical when run twice on the same inputs (human and JSON)', async () => {
    const s = sides();
    for (const extra of [[], ['--json']]) {
      const first = await run('diff', s.old, s.breaking, ...extra);
      const second = await run('diff', s.old, s.breaking, ...extra);
      expect(second.out.join('\n')).toBe(first.out.join('\n'));
    }
    const revisions = [await run('diff', '2025-06-18', '2025-11-25', '--json'), await run('diff', '2025-06-18', '2025-11-25', '--json')];
    expect(revisions[1]!.out.join('\n')).toBe(revisions[0]!.out.join('\n'));
  });

  it('colours only a terminal, and never when NO_COLOR is set or TERM is dumb', () => {
    expect(wantsColour(true, {})).toBe(true);
    expect(wantsColour(false, {})).toBe(false);
    expect(wantsColour(true, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour(true, { NO_COLOR: '' })).toBe(true);
    expect(wantsColour(true, { TERM: 'dumb' })).toBe(false);
  });

  it('coloured output still escapes control and bidi characters from the inputs', async () => {
    const s = sides();
    const report: DiffReport = diffSides(await loadSide(await classifySide(s.old), {}, () => {}), await loadSide(await classifySide(s.breaking), {}, () => {}));
    const hostile = { ...report, findings: report.findings.map((f) => ({ ...f, item: 'tool \u001b[2J\u202eevil', message: 'x\u001b]0;title\u0007' })) };
    const lines = renderHuman(hostile, true);
    const text = lines.join('\n');
    expect(text).toContain('\u001b[31mbreaking'); // our colour
    expect(text).toContain('tool \\u001B[2J\\u202Eevil');
    expect(text).not.toContain('\u001b[2J');
    expect(text).not.toContain('\u202e');
    expect(text).not.toContain('\u0007');
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
