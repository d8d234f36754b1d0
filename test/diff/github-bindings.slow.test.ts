/**
 * HTTP bindings in `mcp-gen diff` on real descriptions: two GitHub Enterprise Server releases and
 * GitHub.com's description, from `@octokit/openapi` (installed into a cache by
 * scripts/openapi-corpora.mjs, never committed). The releases change query parameters of a few
 * operations; moving from GHES to GitHub.com changes the server URL and drops its `hostname`
 * variable, which a running GHES proxy was configured by.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, installCorpora } from '../../scripts/openapi-corpora.mjs';
import { diffSides } from '../../src/diff/diff.js';
import type { Finding } from '../../src/diff/finding.js';
import { loadSide, type LoadedSide } from '../../src/diff/load-side.js';

beforeAll(() => {
  expect(installCorpora()).toBe(0);
}, 600_000);

const github = (file: string): string => join(corpusPath('@octokit/openapi'), 'generated', file);
const load = (file: string): Promise<LoadedSide> => loadSide({ kind: 'openapi', source: github(file) }, {}, () => undefined);
const httpSide = (findings: readonly Finding[]): Finding[] => findings.filter((f) => /^(http|upstream)-/.test(f.kind));

describe('GitHub descriptions: HTTP bindings', () => {
  it('GHES 3.17 → 3.18, and GHES 3.18 → GitHub.com', async () => {
    const [ghes317, ghes318, dotcom] = await Promise.all([load('ghes-3.17.json'), load('ghes-3.18.json'), load('api.github.com.json')]);

    // 3.18 adds the `hide_secret` query parameter to the secret scanning alert operations; its
    // argument is new and optional, so callers are unaffected, and nothing else moved.
    const releases = httpSide(diffSides(ghes317, ghes318).findings);
    console.log(`GHES 3.17 → 3.18: ${releases.length} binding findings`);
    expect(releases.length).toBeGreaterThan(0);
    for (const f of releases) {
      expect([f.kind, f.severity, f.pointer]).toEqual(['http-parameter-added', 'compatible', expect.stringMatching(/^\/tools\/secret_scanning_[^/]+\/http\/parameters\/query\/hide_secret$/)]);
    }
    expect(releases.map((f) => f.item)).toContain('tool secret_scanning_list_alerts_for_repo');

    const report = diffSides(ghes318, dotcom);
    const moved = httpSide(report.findings);
    const count = (kind: string): number => moved.filter((f) => f.kind === kind).length;
    console.log(`GHES 3.18 → GitHub.com: ${count('http-parameter-added')} parameters added, ${count('http-parameter-removed')} removed, upstream: ${moved.filter((f) => f.item === 'upstream').length}`);
    // The server URL loses its variable: a GHES deployment that set it now talks to GitHub.com.
    expect(moved.filter((f) => f.item === 'upstream').map((f) => [f.kind, f.severity, f.pointer])).toEqual([
      ['upstream-variable', 'breaking', '/upstream/variables/hostname'],
      ['upstream-base-url', 'compatible', '/upstream/baseUrl'],
    ]);
    // GitHub.com's code scanning alerts take no `after` cursor; the argument goes with the parameter,
    // so it is reported as removed (compatible on input) and no argument is silently dropped.
    const after = '/tools/code_scanning_list_alerts_for_repo';
    expect(moved).toContainEqual(expect.objectContaining({ kind: 'http-parameter-removed', severity: 'compatible', pointer: `${after}/http/parameters/query/after` }));
    expect(report.findings).toContainEqual(expect.objectContaining({ kind: 'property-removed', pointer: `${after}/inputSchema/properties/after` }));
    expect(count('http-argument-dropped')).toBe(0);
    expect(count('http-parameter-added')).toBeGreaterThan(10);
  }, 300_000);
});
