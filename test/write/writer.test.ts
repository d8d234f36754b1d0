import { mkdtemp, readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlannedFile } from '../../src/write/planned-file.js';
import { bannerText, hasBanner, renderFile } from '../../src/write/render.js';
import { LEDGER_FILE, writeOutput } from '../../src/write/writer.js';

const banner = { command: 'mcp-gen test' };

function gen(path: string, content: string): PlannedFile {
  return { path, content, owner: 'generated', format: 'typescript' };
}
function user(path: string, content: string, merge?: PlannedFile['merge']): PlannedFile {
  return { path, content, owner: 'user', format: 'typescript', ...(merge ? { merge } : {}) };
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'mcp-gen-writer-'));
}

describe('renderFile', () => {
  it('puts the banner on generated files only and formats with fixed options', async () => {
    const g = await renderFile(gen('a.ts', 'export const a = {b:"c"}'), banner);
    expect(g).toBe(`/* ${bannerText(banner)} */\nexport const a = { b: 'c' };\n`);
    expect(hasBanner(g)).toBe(true);
    const u = await renderFile(user('b.ts', 'export const b=1'), banner);
    expect(u).toBe('export const b = 1;\n');
    expect(hasBanner(u)).toBe(false);
  });

  it('leaves the version out when asked, and keeps JSON banner-free', async () => {
    expect(bannerText({ version: '1.2.3' })).toContain('mcp-gen 1.2.3');
    expect(bannerText({})).not.toMatch(/\d/);
    const json = await renderFile({ path: 'x.json', content: '{"a":1}', owner: 'generated', format: 'json' }, banner);
    expect(json).toBe('{ "a": 1 }\n');
  });

  it('replaces the banner a reused generated file already carries: one banner, the current one (the writer decides, not the emitter)', async () => {
    const reused = `/* ${bannerText({ command: 'npm run gen:self' })} */\r\nexport const v = 1;\n`;
    const g = await renderFile({ path: 'generated/runtime/v.js', content: reused, owner: 'generated', format: 'none' }, banner);
    expect(g).toBe(`/* ${bannerText(banner)} */\nexport const v = 1;\n`);
    const t = await renderFile(gen('protocol.ts', reused), banner);
    expect(t).toBe(`/* ${bannerText(banner)} */\nexport const v = 1;\n`);
    // A user-owned file is the user's text: a banner-like first line in it is left alone.
    const u = await renderFile(user('main.ts', reused), banner);
    expect(u.split('\n')[0]).toContain('npm run gen:self');
  });

  it('cannot be tricked into closing the banner comment', async () => {
    const text = await renderFile(gen('a.ts', 'export {};'), { command: 'x */ evil() /*' });
    expect(text.split('\n')[0]).not.toContain('*/ evil');
  });
});

describe('writeOutput', () => {
  it('writes, records a ledger, and is a no-op the second time', async () => {
    const dir = join(await tempDir(), 'out');
    const files = [gen('generated/b.ts', 'export const b = 2;'), gen('generated/a.ts', 'export const a = 1;'), user('main.ts', 'export {};')];
    const first = await writeOutput(dir, files, { banner });
    expect(first.created).toEqual(['generated/a.ts', 'generated/b.ts', 'main.ts']);
    const ledger = JSON.parse(await readFile(join(dir, LEDGER_FILE), 'utf8'));
    expect(Object.keys(ledger.files)).toEqual(['generated/a.ts', 'generated/b.ts']);
    const second = await writeOutput(dir, files, { banner });
    expect(second.unchanged).toEqual(['generated/a.ts', 'generated/b.ts']);
    expect(second.kept).toEqual(['main.ts']);
    const check = await writeOutput(dir, files, { banner, check: true });
    expect([...check.stale, ...check.missing, ...check.extra]).toEqual([]);
  });

  it('never overwrites user files, but lets their merge hook add to them', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'handlers'), { recursive: true });
    await writeFile(join(dir, 'main.ts'), '// mine\n');
    await writeFile(join(dir, 'handlers/index.ts'), 'export const a = 1;\n');
    const report = await writeOutput(
      dir,
      [user('main.ts', 'export {};'), user('handlers/index.ts', 'x', (old) => `${old}export const b = 2;\n`)],
      { banner },
    );
    expect(report.kept).toEqual(['main.ts']);
    expect(report.merged).toEqual(['handlers/index.ts']);
    expect(await readFile(join(dir, 'main.ts'), 'utf8')).toBe('// mine\n');
    expect(await readFile(join(dir, 'handlers/index.ts'), 'utf8')).toBe('export const a = 1;\nexport const b = 2;\n');
    const forced = await writeOutput(dir, [user('main.ts', 'export {};')], { banner, force: true });
    expect(forced.updated).toEqual(['main.ts']);
  });

  it('check mode reports stale, missing and extra files and writes nothing', async () => {
    const dir = await tempDir();
    await writeOutput(dir, [gen('a.ts', 'export const a = 1;'), gen('gone.ts', 'export {};')], { banner });
    const before = (await readdir(dir)).sort();
    const report = await writeOutput(dir, [gen('a.ts', 'export const a = 2;'), gen('new.ts', 'export {};')], { banner, check: true });
    expect(report.stale).toEqual(['a.ts']);
    expect(report.missing).toEqual(['new.ts']);
    expect(report.extra).toEqual(['gone.ts']);
    expect((await readdir(dir)).sort()).toEqual(before);
  });

  it('deletes only ledger-listed files whose banner is intact', async () => {
    const dir = await tempDir();
    await writeOutput(dir, [gen('a.ts', 'export {};'), gen('b.ts', 'export {};')], { banner });
    await writeFile(join(dir, 'b.ts'), '// the user took this file over\n');
    const report = await writeOutput(dir, [], { banner });
    expect(report.deleted).toEqual(['a.ts']);
    expect(await readFile(join(dir, 'b.ts'), 'utf8')).toBe('// the user took this file over\n');
  });

  it('never deletes a file this run still plans, even one that became user-owned', async () => {
    const dir = await tempDir();
    await writeOutput(dir, [gen('a.ts', 'export {};')], { banner });
    const before = await readFile(join(dir, 'a.ts'), 'utf8');
    const report = await writeOutput(dir, [user('a.ts', 'export {};')], { banner });
    expect(report.kept).toEqual(['a.ts']);
    expect(report.deleted).toEqual([]);
    expect(await readFile(join(dir, 'a.ts'), 'utf8')).toBe(before);
  });

  it('leaves the output untouched when rendering fails', async () => {
    const dir = await tempDir();
    await writeOutput(dir, [gen('a.ts', 'export const a = 1;')], { banner });
    const before = await readFile(join(dir, 'a.ts'), 'utf8');
    await expect(writeOutput(dir, [gen('a.ts', 'export const a = 2;'), gen('b.ts', 'this is not ( typescript')], { banner })).rejects.toThrow();
    expect(await readFile(join(dir, 'a.ts'), 'utf8')).toBe(before);
    expect((await readdir(dir)).sort()).toEqual([LEDGER_FILE, 'a.ts']);
  });

  it('does not read a user file it keeps as it is, nor render its skeleton (thousands of tool stubs on a warm run)', async () => {
    const dir = await tempDir();
    // Something at the stub's path that cannot be read as a file: only its existence counts.
    await mkdir(join(dir, 'handlers', 'tools', 'kept.ts'), { recursive: true });
    const unrenderable = { ...user('handlers/tools/kept.ts', 'export const kept = 1;'), format: 'json' as const };
    const report = await writeOutput(dir, [unrenderable, user('handlers/tools/new.ts', 'export const fresh=1')], { banner });
    expect(report.kept).toEqual(['handlers/tools/kept.ts']);
    expect(report.created).toEqual(['handlers/tools/new.ts']);
    expect(await readFile(join(dir, 'handlers', 'tools', 'new.ts'), 'utf8')).toBe('export const fresh = 1;\n');
  });

  it('writes many files in many folders, the same bytes in the same order as one at a time', async () => {
    const dir = await tempDir();
    const files = Array.from({ length: 120 }, (_, i) => gen(`f${i % 7}/sub${i % 3}/file${i}.ts`, `export const v${i} = ${i};`));
    const report = await writeOutput(dir, files, { banner });
    expect(report.created).toEqual(files.map((f) => f.path).sort());
    for (const file of files) expect(await readFile(join(dir, file.path), 'utf8')).toBe(await renderFile(file, banner));
    const again = await writeOutput(dir, [...files].reverse(), { banner });
    expect(again.unchanged).toEqual(report.created);
  });

  it('refuses paths that leave the output folder', async () => {
    const dir = await tempDir();
    for (const path of ['../x.ts', '/etc/x.ts', 'a/../../x.ts', 'a\\b.ts']) {
      await expect(writeOutput(dir, [gen(path, 'export {};')], { banner })).rejects.toThrow(/unsafe output path/);
    }
  });
});

describe('unformatted files', () => {
  it('still carry the banner, chosen by extension', async () => {
    const js = await renderFile({ path: 'v.js', content: 'export const a=1\n', owner: 'generated', format: 'none' }, banner);
    expect(js).toBe(`/* ${bannerText(banner)} */\nexport const a=1\n`);
    const md = await renderFile({ path: 'R.md', content: '# x\n', owner: 'generated', format: 'none' }, banner);
    expect(md.startsWith('<!--')).toBe(true);
  });
});
