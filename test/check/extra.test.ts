/**
 * Extra files (issue 27, item 13): a file copied into a folder mcp-gen owns (a server's
 * `generated/`, a client's output), with the banner or without, is listed by `mcp-gen check` and
 * by the writing commands' `--check` (`extra:` lines, exit 1); files in user-owned places
 * (`handlers/`, the server folder beside `main.ts`) are not.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../client/support.js';

const run = (...argv: string[]) => cli(argv);

const MANIFEST = `server: { name: extras, version: 1.0.0 }
tools:
  - name: add
    inputSchema: { type: object, properties: { a: { type: number } } }
`;

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-gen-extra-'));
  await writeFile(join(dir, 'manifest.yaml'), MANIFEST);
  for (const [command, out] of [
    ['server', 'server'],
    ['client', 'client'],
  ]) {
    const made = await run(command as string, join(dir, 'manifest.yaml'), '-o', join(dir, out as string));
    expect(made.code, made.err).toBe(0);
  }
  return dir;
}

describe('extra files in the folders mcp-gen owns', () => {
  it('mcp-gen check lists each one (banner or not, nested or not), exit 1; user-owned places are not looked at', async () => {
    const dir = await project();
    const server = join(dir, 'server');
    const types = await readFile(join(server, 'generated', 'types.ts'), 'utf8');
    await writeFile(join(server, 'generated', 'types-copy.ts'), types); // carries the banner
    await writeFile(join(server, 'generated', 'notes.txt'), 'mine\n'); // no banner
    await mkdir(join(server, 'generated', 'more', 'deep'), { recursive: true });
    await writeFile(join(server, 'generated', 'more', 'deep', 'x.ts'), 'export {};\n');
    // User-owned places: never reported.
    await writeFile(join(server, 'handlers', 'helper.ts'), 'export const help = 1;\n');
    await writeFile(join(server, 'README.md'), '# my server\n');
    await writeFile(join(dir, 'client', 'copied.ts'), 'export {};\n');

    const result = await run('check', join(dir, 'server'), join(dir, 'client'));
    expect(result.code).toBe(1);
    const extra = result.err.split('\n').filter((l) => l.startsWith('extra: ')).map((l) => l.replace(/^extra: .*mcp-gen-extra-[^/]+\//, ''));
    expect(extra.sort()).toEqual(['client/copied.ts', 'server/generated/more/deep/x.ts', 'server/generated/notes.txt', 'server/generated/types-copy.ts']);
    expect(result.err).toContain('delete the extra files it leaves');

    const json = JSON.parse((await run('check', join(dir, 'server'), '--json')).out) as { exitCode: number; outputs: { extra: string[]; status: string }[] };
    expect(json.exitCode).toBe(1);
    expect(json.outputs[0]).toMatchObject({ status: 'stale', extra: ['generated/more/deep/x.ts', 'generated/notes.txt', 'generated/types-copy.ts'] });

    // Once they are gone (the user's files stay), everything is current.
    await rm(join(server, 'generated', 'more'), { recursive: true });
    await rm(join(server, 'generated', 'notes.txt'));
    await rm(join(server, 'generated', 'types-copy.ts'));
    await rm(join(dir, 'client', 'copied.ts'));
    const after = await run('check', join(dir, 'server'), join(dir, 'client'));
    expect(after.code, after.err).toBe(0);
  });

  it('a docs or types output shares its folder: the user\'s files beside index.html or types.ts are not reported', async () => {
    const dir = await project();
    const docs = join(dir, 'docs');
    await mkdir(docs);
    await writeFile(join(docs, 'guide.md'), '# guide\n');
    expect((await run('docs', join(dir, 'manifest.yaml'), '-o', docs)).code).toBe(0);
    expect((await run('types', '--spec', '2025-11-25', '-o', join(dir, 'protocol'))).code).toBe(0);
    await writeFile(join(dir, 'protocol', 'index.ts'), 'export * from "./types.js";\n');
    const result = await run('check', docs, join(dir, 'protocol'));
    expect(result.code, result.err).toBe(0);
  });

  it('the writing commands\' --check list them too', async () => {
    const dir = await project();
    await writeFile(join(dir, 'server', 'generated', 'stray.ts'), 'export {};\n');
    await writeFile(join(dir, 'server', 'handlers', 'mine.ts'), 'export {};\n');
    await writeFile(join(dir, 'client', 'runtime', 'stray.js'), 'export {};\n');
    const server = await run('server', join(dir, 'manifest.yaml'), '-o', join(dir, 'server'), '--check');
    expect(server.code).toBe(1);
    expect(server.err.split('\n').filter((l) => l.startsWith('extra: '))).toEqual([expect.stringMatching(/^extra: .*mcp-gen-extra-[^/]+\/server\/generated\/stray\.ts$/)]);
    const client = await run('client', join(dir, 'manifest.yaml'), '-o', join(dir, 'client'), '--check');
    expect(client.code).toBe(1);
    expect(client.err.split('\n').filter((l) => l.startsWith('extra: '))).toEqual([expect.stringMatching(/^extra: .*mcp-gen-extra-[^/]+\/client\/runtime\/stray\.js$/)]);
  });
});
