/**
 * Every shipped revision through every command that takes `--spec` (issue 41): `types`, `diff`
 * (the name against the same schema given as a file), `server --spec` and `client --spec`. Slow
 * tier: four generator runs for each of six revisions.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_SPEC_DIR, KNOWN_REVISIONS } from '../../src/load/spec.js';
import { cli, tempDir } from './spec-variants.js';

const MANIFEST = join(import.meta.dirname, '..', 'fixtures', 'server', 'no-output', 'manifest.yaml');

describe.each(KNOWN_REVISIONS)('revision %s', (revision) => {
  const dir = tempDir(`mcp-gen-${revision}-`);

  it('types', async () => {
    const result = await cli('types', '--spec', revision, '-o', join(dir, 'types'), '--docs', 'none', '-q');
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('diff: the name against the same schema as a file', async () => {
    const result = await cli('diff', revision, join(BUNDLED_SPEC_DIR, revision, 'schema.json'), '--fail-on', 'any');
    expect(result.out.at(-1)).toBe('no differences.');
    expect(result.code).toBe(0);
  });

  it.each(['server', 'client'])('%s --spec', async (command) => {
    const result = await cli(command, MANIFEST, '-o', join(dir, command), '--spec', revision, '-q');
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
  });
});
