/**
 * `mcp-gen types` takes any schema (issue 41): a revision name found in --spec-dir (added to the
 * shipped ones), a file, a folder, a URL. The revision and LATEST_PROTOCOL_VERSION come from what
 * the schema states; a download that fails exits 3. Schemas are derived from the shipped ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_SPEC_DIR, resolveSpec } from '../../src/load/spec.js';
import { statedProtocolVersion } from '../../src/load/spec-version.js';
import { cli, serveFiles, shippedSchema, statingVersion, tempDir, unreachableUrl, writeSchema } from './spec-variants.js';

const latest = (out: string): string | undefined => /LATEST_PROTOCOL_VERSION = '([^']*)'/.exec(readFileSync(join(out, 'types.ts'), 'utf8'))?.[1];

describe('mcp-gen types --spec: any schema', () => {
  const dir = tempDir();
  const specDir = join(dir, 'specs');
  // A new dated revision nobody shipped yet: the stateless schema under a new name (it states no version).
  writeSchema(specDir, '2026-12-01', shippedSchema('2026-07-28'));

  it('a revision name found in --spec-dir is generated, not "unknown revision"', async () => {
    const out = join(dir, 'named');
    const result = await cli('types', '--spec', '2026-12-01', '--spec-dir', specDir, '-o', out, '--docs', 'none', '--no-version-banner');
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(latest(out)).toBe('2026-12-01');
    const ledger = JSON.parse(readFileSync(join(out, '.mcp-gen-ledger.json'), 'utf8')) as { recipe: { inputs: unknown[]; options: Record<string, unknown> } };
    expect(ledger.recipe.options['spec']).toBe('2026-12-01');
    expect(ledger.recipe.inputs).toEqual([{ role: 'spec', revision: '2026-12-01', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // `check` finds it again the same way.
    expect((await cli('check', out)).code).toBe(0);
  });

  it('--spec-dir adds to the shipped revisions: one it lacks comes from the package', async () => {
    const spec = await resolveSpec('2025-11-25', { specDir });
    expect(spec.source).toBe(join(BUNDLED_SPEC_DIR, '2025-11-25', 'schema.json'));
    expect((await resolveSpec('2026-12-01', { specDir })).source).toBe(join(specDir, '2026-12-01', 'schema.json'));
  });

  it('a folder holding schema.json is a schema', async () => {
    const spec = await resolveSpec(join(specDir, '2026-12-01'));
    expect(spec.revision).toBe('2026-12-01');
    expect(spec.source).toBe(join(specDir, '2026-12-01', 'schema.json'));
    const empty = await cli('types', '--spec', specDir, '-o', join(dir, 'never'));
    expect(empty.code).toBe(2);
    expect(empty.err[0]).toContain(`${specDir}: a folder without schema.json`);
  });

  it('LATEST_PROTOCOL_VERSION comes from the schema: a draft that states 2026-07-28 emits 2026-07-28', async () => {
    const stating = join(dir, 'stating');
    writeSchema(stating, 'draft', statingVersion(shippedSchema('draft'), '2026-07-28'));
    const out = join(dir, 'draft-out');
    const result = await cli('types', '--spec', 'draft', '--spec-dir', stating, '-o', out, '--docs', 'none', '--no-version-banner');
    expect(result.code).toBe(0);
    expect(latest(out)).toBe('2026-07-28');
    // A file in a folder named after nothing: the statement is enough, no --revision needed.
    const loose = writeSchema(dir, 'pr-2111', statingVersion(shippedSchema('draft'), '2026-07-28'));
    expect((await resolveSpec(loose)).revision).toBe('2026-07-28');
    // The shipped draft states nothing: its label stays.
    expect((await resolveSpec('draft')).revision).toBe('draft');
  });

  it('reads where schemas state a version, and believes none when they disagree', () => {
    expect(statedProtocolVersion({ LATEST_PROTOCOL_VERSION: '2027-01-01' }, {})).toBe('2027-01-01');
    expect(statedProtocolVersion({}, { LATEST_PROTOCOL_VERSION: { const: 'DRAFT-2026-v1', type: 'string' } })).toBe('DRAFT-2026-v1');
    expect(statedProtocolVersion({}, { InitializeResult: { properties: { protocolVersion: { enum: ['2026-07-28'] } } } })).toBe('2026-07-28');
    const disagreeing = { A: { properties: { protocolVersion: { const: '2026-07-28' } } }, B: { properties: { protocolVersion: { const: '2025-11-25' } } } };
    expect(statedProtocolVersion({}, disagreeing)).toBeUndefined();
    expect(statedProtocolVersion({}, { A: { description: 'see /specification/2025-06-18/basic' } })).toBe('2025-06-18');
    expect(statedProtocolVersion({}, { A: { properties: { protocolVersion: { type: 'string' } } } })).toBeUndefined();
  });

  it('a schema served over a loopback URL', async () => {
    const served = await serveFiles({ '/schema.json': JSON.stringify(shippedSchema('2025-06-18')) });
    try {
      const out = join(dir, 'from-url');
      const result = await cli('types', '--spec', `${served.url}/schema.json`, '-o', out, '--docs', 'none', '--no-version-banner');
      expect(result.err).toEqual([]);
      expect(result.code).toBe(0);
      // The URL's path names no revision; the schema's links to its own pages do.
      expect(latest(out)).toBe('2025-06-18');
    } finally {
      await served.close();
    }
  });

  it('a schema URL that cannot be fetched exits 3 (network), as docs/workflow.md says; a 404 too', async () => {
    const url = await unreachableUrl('/schema.json');
    const result = await cli('types', '--spec', url, '-o', join(dir, 'never'));
    expect(result.code).toBe(3);
    expect(result.err[0]).toContain(`${url}: could not download the schema`);
    const served = await serveFiles({});
    try {
      const missing = await cli('types', '--spec', `${served.url}/2026-07-28/schema.json`, '-o', join(dir, 'never'));
      expect(missing.code).toBe(3);
      expect(missing.err[0]).toContain('HTTP 404');
    } finally {
      await served.close();
    }
  });

  it('an unknown revision name still exits 2 and says where it looked', async () => {
    const result = await cli('types', '--spec', '2031-01-01', '--spec-dir', specDir, '-o', join(dir, 'never'));
    expect(result.code).toBe(2);
    expect(result.err[0]).toContain('unknown revision "2031-01-01"');
    expect(result.err[0]).toContain(join(specDir, '<revision>', 'schema.json'));
  });
});
