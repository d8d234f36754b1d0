/**
 * `mcp-gen diff` compares any two protocol schemas (issue 41): a revision name (shipped or in
 * --spec-dir), a schema file, a folder holding one, a URL ending in .json. The variants are derived
 * in code from the shipped schemas (test/types/spec-variants.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/diff/finding.js';
import { cli, serveFiles, shippedSchema, tempDir, unreachableUrl, withAddedMethod, withConstraints, writeSchema } from '../types/spec-variants.js';

function findingsOf(out: string[]): { findings: Finding[]; sides: { kind: string; source: string }[] } {
  const report = JSON.parse(out.join('\n')) as { findings: Finding[]; old: { kind: string; source: string }; new: { kind: string; source: string } };
  return { findings: report.findings, sides: [report.old, report.new] };
}

describe('mcp-gen diff with schema files, folders, spec-dir names and URLs', () => {
  const dir = tempDir('mcp-gen-diff-specs-');
  const constrained = writeSchema(dir, 'pr-constraints', withConstraints(shippedSchema('draft')));
  const added = writeSchema(dir, 'pr-method', withAddedMethod(shippedSchema('draft')));

  it("the current draft against a pull request's draft file: its added limits, nothing else", async () => {
    const result = await cli('diff', 'draft', constrained, '--json');
    expect(result.err).toEqual([]);
    const { findings, sides } = findingsOf(result.out);
    expect(sides.map((s) => s.kind)).toEqual(['revision', 'revision']);
    expect(findings.map((f) => `${f.kind} ${f.pointer}`).sort()).toEqual([
      'maxItems /$defs/ListToolsResult/properties/tools/maxItems',
      'maxLength /$defs/CallToolRequestParams/properties/name/maxLength',
      'maxLength /$defs/Implementation/properties/name/maxLength',
    ]);
    // A new limit narrows what may be sent: breaking for someone, so the default --fail-on trips.
    expect(result.code).toBe(1);
  });

  it('two drafts, as a file and as a folder: no hand-made --spec-dir', async () => {
    const result = await cli('diff', join(dir, 'pr-constraints'), added, '--json', '--fail-on', 'none');
    expect(result.code).toBe(0);
    const items = findingsOf(result.out).findings.map((f) => `${f.kind} ${f.item}`);
    expect(items).toContain('added request x/y (client → server)');
    expect(items).toContain('maxLength definition Implementation');
  });

  it('a revision found only in --spec-dir, against a shipped one', async () => {
    const specDir = join(dir, 'specs');
    writeSchema(specDir, '2026-12-01', withAddedMethod(shippedSchema('2026-07-28')));
    const result = await cli('diff', '2026-07-28', '2026-12-01', '--spec-dir', specDir, '--json');
    expect(result.err).toEqual([]);
    const methods = findingsOf(result.out).findings.filter((f) => f.item.startsWith('request '));
    expect(methods).toEqual([expect.objectContaining({ kind: 'added', item: 'request x/y (client → server)', impact: { client: 'compatible', server: 'breaking' } })]);
  });

  it('a schema served over a loopback URL ending in .json is a schema side, not a live server', async () => {
    const served = await serveFiles({ '/2025-11-25/schema.json': JSON.stringify(shippedSchema('2025-11-25')) });
    try {
      const result = await cli('diff', '2025-11-25', `${served.url}/2025-11-25/schema.json`, '--fail-on', 'any');
      expect(result.err).toEqual([]);
      expect(result.out.at(-1)).toBe('no differences.');
      expect(result.code).toBe(0);
    } finally {
      await served.close();
    }
  });

  it('a schema URL that cannot be fetched exits 3', async () => {
    const url = await unreachableUrl('/draft/schema.json');
    const result = await cli('diff', 'draft', url);
    expect(result.code).toBe(3);
    expect(result.out).toEqual([]);
    expect(result.err[0]).toContain(`${url}: could not download the schema`);
  });

  it('a schema file against a manifest is refused as a mix of families', async () => {
    const manifest = join(dir, 'manifest.yaml');
    (await import('node:fs')).writeFileSync(manifest, 'server: { name: x, version: 1.0.0 }\ntools: []\n');
    const result = await cli('diff', constrained, manifest);
    expect(result.code).toBe(2);
    expect(result.err[0]).toMatch(/cannot compare the protocol revision .*pr-constraints.* with the server/);
  });
});
