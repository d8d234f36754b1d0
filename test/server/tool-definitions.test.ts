// Issue 42 item 1: when tools share large schema pieces (the definitions the bundler copies into
// each tool's `$defs`, the `properties` of roots inlined from the same definition), their
// tools/list entries leave server.ts for generated/tool-definitions.ts, each shared piece written
// once and joined per entry when a page first needs it. What a client receives stays byte for byte
// `JSON.stringify` of each tool as the manifest defines it, as when server.ts embedded every entry.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as cli } from '../../src/cli/main.js';
import { toolConstant } from '../../src/emit/server/server-file.js';
import type { ServiceModel } from '../../src/model/service-model.js';
import { outputFiles } from '../support/output-files.js';
import { build, loadModel, plan, repoRoot, tempDir, write } from './support.js';

const fixture = join(repoRoot, 'test', 'fixtures', 'server', 'shared-defs', 'manifest.yaml');
const work = tempDir('tool-definitions');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The planned files of a manifest, by path. */
async function planned(model: ServiceModel): Promise<Map<string, string>> {
  const files = (await plan(model)).files;
  return new Map(files.flatMap((file) => ('content' in file && typeof file.content === 'string' ? [[file.path, file.content] as const] : [])));
}

let modules = 0;
/** tool-definitions.ts compiled by TypeScript's transpiler and imported: each tool's export. */
async function definitionsOf(source: string): Promise<Record<string, () => string>> {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const path = join(work, `definitions-${++modules}.mjs`);
  writeFileSync(path, js);
  return (await import(/* @vite-ignore */ pathToFileURL(path).href)) as Record<string, () => string>;
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describe('generated/tool-definitions.ts', () => {
  let model: ServiceModel;
  let files: Map<string, string>;
  beforeAll(async () => {
    model = await loadModel(fixture);
    files = await planned(model);
  });

  it('writes each shared piece once, and server.ts names the entries instead of holding them', async () => {
    const module = files.get('generated/tool-definitions.ts') as string;
    const server = files.get('generated/server.ts') as string;
    expect(module).toBeDefined();
    const table = [...module.matchAll(/^ {2}'([0-9a-f]{16})': ('.*'),$/gm)];
    // `repository` as a definition, and the `properties` of the two roots inlined from it.
    expect(table).toHaveLength(2);
    for (const [, , value] of table) expect(occurrences(module, value as string)).toBe(1);
    // A property of `repository`: in the definition and in the roots' properties, each written
    // once; the entries hold it four times (two roots, and the copies in two tools' `$defs`).
    const texts = model.tools.map((tool) => JSON.stringify(tool.wire));
    const forks = 'How many forks were made of it.';
    expect(occurrences(module, forks)).toBe(2);
    expect(texts.reduce((n, text) => n + occurrences(text, forks), 0)).toBe(4);
    expect(server).not.toContain(forks);
    for (const tool of model.tools) expect(server).toContain(`text: toolDefinitions.${toolConstant(tool)},`);
    // `owner` is held by several entries but too small to be worth a table entry: it stays in each.
    const owner = JSON.stringify({ type: 'object', properties: { login: { type: 'string' } }, required: ['login'] });
    expect(table.map(([, , value]) => value)).not.toContain(`'${owner}'`);
    expect(occurrences(module, owner)).toBeGreaterThan(1);
  });

  it("joins each entry into the bytes of the tool's JSON", async () => {
    const definitions = await definitionsOf(files.get('generated/tool-definitions.ts') as string);
    expect(Object.keys(definitions).sort()).toEqual(model.tools.map(toolConstant).sort());
    for (const tool of model.tools) expect(definitions[toolConstant(tool)]!()).toBe(JSON.stringify(tool.wire));
  });

  it('changes every entry that holds a shared piece when the manifest changes it once', async () => {
    const changed = join(work, 'changed', 'manifest.yaml');
    mkdirSync(join(work, 'changed'), { recursive: true });
    const source = readFileSync(fixture, 'utf8');
    writeFileSync(changed, source.replace('How many forks were made of it.', 'Forks made of it so far.'));
    const after = await loadModel(changed);
    const module = (await planned(after)).get('generated/tool-definitions.ts') as string;
    expect(module).not.toContain('How many forks were made of it.');
    expect(occurrences(module, 'Forks made of it so far.')).toBe(2);
    const definitions = await definitionsOf(module);
    const holding = after.tools.filter((tool) => JSON.stringify(tool.wire).includes('Forks made of it so far.')).map((tool) => tool.name);
    expect(holding).toEqual(['get_repository', 'update_repository', 'list_repositories', 'get_fork']);
    for (const tool of after.tools) expect(definitions[toolConstant(tool)]!()).toBe(JSON.stringify(tool.wire));
  });

  it('is not written for a server none of whose pieces is worth sharing: server.ts embeds each entry as before', async () => {
    const weather = await planned(await loadModel(join(repoRoot, 'examples', 'weather', 'manifest.yaml')));
    expect(weather.has('generated/tool-definitions.ts')).toBe(false);
    expect(weather.get('generated/server.ts')).toContain(`text: '{"name":"get_weather",`);
  });
});

describe('tool-definitions.ts through the unit cache', () => {
  const run = async (...argv: string[]): Promise<void> => {
    const err: string[] = [];
    const code = await cli(argv, { out: () => {}, err: (line) => err.push(line) });
    expect(code, err.join('\n')).toBe(0);
  };
  // The folder's cache alone, so a cold run is cold.
  const sharedCache = process.env['MCP_GEN_SHARED_CACHE'];
  beforeAll(() => void (process.env['MCP_GEN_SHARED_CACHE'] = 'off'));
  afterAll(() => (sharedCache === undefined ? delete process.env['MCP_GEN_SHARED_CACHE'] : void (process.env['MCP_GEN_SHARED_CACHE'] = sharedCache)));

  it('writes the same bytes warm as cold after a shared piece changed', async () => {
    const dir = join(work, 'cache');
    mkdirSync(dir, { recursive: true });
    const manifest = join(dir, 'manifest.yaml');
    writeFileSync(manifest, readFileSync(fixture, 'utf8'));
    const generate = (out: string) => run('server', manifest, '-o', join(dir, out), '--no-version-banner');
    await generate('warm');
    writeFileSync(manifest, readFileSync(fixture, 'utf8').replace('How many forks were made of it.', 'Forks made of it so far.'));
    await generate('warm');
    await generate('cold');
    const warm = await outputFiles(join(dir, 'warm'));
    const cold = await outputFiles(join(dir, 'cold'));
    expect(cold['generated/tool-definitions.ts']).toContain('Forks made of it so far.');
    for (const path of Object.keys(cold).filter((p) => p.startsWith('generated/'))) expect(warm[path], path).toBe(cold[path]);
  }, 120_000);
});

describe('a generated server with shared pieces, over stdio', () => {
  let main: string;
  let model: ServiceModel;
  beforeAll(async () => {
    model = await loadModel(fixture);
    const project = join(work, 'project');
    await write(project, await plan(model), fixture);
    main = build(project, join(work, 'build'));
  }, 300_000);

  it('serves every tools/list page with the bytes the entries have, following cursors, and validates calls', async () => {
    const child = spawn(process.execPath, [main], { stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let partial = '';
    const waiting = new Map<number, (line: string) => void>();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() as string;
      for (const line of parts) {
        lines.push(line);
        const id = (JSON.parse(line) as { id?: number }).id;
        if (id !== undefined) waiting.get(id)?.(line);
      }
    });
    const request = (id: number, method: string, params: object): Promise<string> =>
      new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    try {
      await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bytes', version: '1' } });
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      const texts = model.tools.map((tool) => JSON.stringify(tool.wire));
      let cursor: string | undefined;
      let id = 1;
      for (let offset = 0; offset < texts.length; offset += 2) {
        const line = await request(++id, 'tools/list', cursor === undefined ? {} : { cursor });
        const result = line.slice(line.indexOf('"result":') + '"result":'.length, -1);
        const next = offset + 2 < texts.length ? (JSON.parse(result) as { nextCursor: string }).nextCursor : undefined;
        const expected = `{"tools":[${texts.slice(offset, offset + 2).join(',')}]${next === undefined ? '' : `,"nextCursor":${JSON.stringify(next)}`}}`;
        expect(result).toBe(expected);
        cursor = next;
      }
      // The entries came from tool-definitions.ts; the validators still load on a tool's first call.
      const refused = JSON.parse(await request(++id, 'tools/call', { name: 'get_repository', arguments: { owner: '' } })) as { result: { isError: boolean; content: { text: string }[] } };
      expect(refused.result.isError).toBe(true);
      expect(refused.result.content[0]!.text).toMatch(/^Invalid arguments for tool get_repository/);
    } finally {
      child.kill();
    }
  });
});
