/**
 * `mcp-gen server --spec` and `client --spec` (issue 41): a newer schema for a revision the runtime
 * speaks regenerates what comes from data (envelope validators, protocol types); one that adds or
 * changes methods is refused with what the runtime would lack; the ledger records the digest and
 * `check` notices a change. Schemas are derived from the shipped ones (spec-variants.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/pipeline/paths.js';
import { loadSpecUpdate, updatedValidatorSources } from '../../src/pipeline/spec-update.js';
import { cli, shippedSchema, tempDir, unreachableUrl, withAddedMethod, withChangedMeaning, withConstraints, writeSchema } from './spec-variants.js';

const MANIFEST = join(import.meta.dirname, '..', 'fixtures', 'server', 'no-output', 'manifest.yaml');

type Validate = ((value: unknown) => boolean) & { errors?: unknown };

/** The runtime's initialize validator compiled from `schemaPath`, loaded as the generated server loads it. */
async function initializeValidator(schemaPath: string, dir: string): Promise<Validate> {
  const sources = await updatedValidatorSources(await loadSpecUpdate(schemaPath, undefined));
  const file = join(dir, `initialize-validators-${Date.now()}.mjs`);
  writeFileSync(file, sources['initialize-validators.js']!);
  return ((await import(pathToFileURL(file).href)) as { validateInitializeRequest: Validate }).validateInitializeRequest;
}

const initialize = (name: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1.0.0' } },
});

describe('server and client --spec: an updated schema for a revision the runtime speaks', () => {
  const dir = tempDir('mcp-gen-spec-update-');
  const errata = writeSchema(dir, '2025-11-25', withConstraints(shippedSchema('2025-11-25'), 64));

  it('added constraints are accepted and flow into the envelope validators', async () => {
    const out = join(dir, 'server');
    const result = await cli('server', MANIFEST, '-o', out, '--spec', errata, '--no-version-banner');
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(out, 'generated', 'runtime', 'initialize-validators.ts'), 'utf8')).toContain('> 64');
    const validate = await initializeValidator(errata, dir);
    expect(validate(initialize('short'))).toBe(true);
    expect(validate(initialize('x'.repeat(65)))).toBe(false);
    // mcp-gen's own schema puts no limit there; given as --spec, nothing needs compiling again.
    const shipped = (await import(pathToFileURL(join(PACKAGE_ROOT, 'generated', 'runtime', 'initialize-validators.js')).href)) as { validateInitializeRequest: Validate };
    expect(shipped.validateInitializeRequest(initialize('x'.repeat(65)))).toBe(true);
    const same = await loadSpecUpdate(writeSchema(dir, 'shipped/2025-11-25', shippedSchema('2025-11-25')), undefined);
    expect(await updatedValidatorSources(same)).toEqual({});
  });

  it('the ledger records the schema and its digest; check notices when the file changes', async () => {
    const out = join(dir, 'checked');
    const file = writeSchema(dir, 'moving/2025-11-25', withConstraints(shippedSchema('2025-11-25'), 64));
    expect((await cli('server', MANIFEST, '-o', out, '--spec', file, '--no-version-banner')).code).toBe(0);
    const ledger = JSON.parse(readFileSync(join(out, '.mcp-gen-ledger.json'), 'utf8')) as { recipe: { options: Record<string, unknown>; inputs: { role: string; path?: string }[] } };
    expect(ledger.recipe.options['spec']).toBe('../moving/2025-11-25/schema.json');
    expect(ledger.recipe.inputs).toContainEqual({ role: 'spec', path: '../moving/2025-11-25/schema.json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await cli('check', out)).code).toBe(0);
    writeSchema(dir, 'moving/2025-11-25', withConstraints(shippedSchema('2025-11-25'), 32));
    const stale = await cli('check', out);
    expect(stale.code).toBe(1);
    const said = [...stale.out, ...stale.err].join('\n');
    expect(said).toContain('input changed: ');
    expect(said).toContain('stale: ');
    expect(said).toMatch(/--spec \S*moving\/2025-11-25\/schema\.json/);
  });

  it('the client takes a draft with added limits for 2026-07-28', async () => {
    const draft = writeSchema(dir, 'pr/draft', withConstraints(shippedSchema('draft'), 64));
    const out = join(dir, 'client');
    const result = await cli('client', MANIFEST, '-o', out, '--spec', draft, '--no-version-banner');
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    // The draft stands in for 2026-07-28, the version the client negotiates.
    expect(readFileSync(join(out, 'protocol-2026-07-28.ts'), 'utf8')).toContain("LATEST_PROTOCOL_VERSION = '2026-07-28'");
  });

  it("a pull request's file that names no revision updates the era its shape belongs to", async () => {
    const file = writeSchema(dir, 'pr-2111', withConstraints(shippedSchema('draft'), 48));
    const out = join(dir, 'unnamed');
    const result = await cli('server', MANIFEST, '-o', out, '--spec', file, '--no-version-banner');
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    // No initialize: the stateless era's validators, with the limit on a tool's name.
    expect(readFileSync(join(out, 'generated', 'runtime', 'stateless-validators.ts'), 'utf8')).toContain('> 48');
    expect(readFileSync(join(out, 'generated', 'runtime', 'initialize-validators.ts'), 'utf8')).not.toContain('> 48');
  });

  it.each([
    ['server', 'adds a request method', withAddedMethod, 'new request method `x/y` (client → server): not served'],
    ['client', 'adds a request method', withAddedMethod, 'new request method `x/y` (client → server): not served'],
    ['server', "changes a method's params", withChangedMeaning, 'request method `tools/list` (client → server): params changed from optional to required: the runtime keeps the old meaning'],
  ] as const)('%s: a schema that %s is refused with exit 2 and what the runtime would lack', async (command, _what, derive, line) => {
    const file = writeSchema(dir, `refused-${command}-${derive.name}/2025-11-25`, derive(shippedSchema('2025-11-25')));
    const out = join(dir, `refused-${command}-${derive.name}-out`);
    const result = await cli(command, MANIFEST, '-o', out, '--spec', file);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err[0]).toContain('this schema for 2025-11-25 changes methods the runtime implements');
    expect(result.err[1]).toContain(line);
    expect(result.err.at(-1)).toMatch(/problems? found; nothing was written/);
  });

  it('a revision the runtime does not negotiate is refused, with what it would lack against the nearest one', async () => {
    const specDir = join(dir, 'specs');
    writeSchema(specDir, '2026-12-01', withAddedMethod(shippedSchema('2026-07-28')));
    const result = await cli('server', MANIFEST, '-o', join(dir, 'never'), '--spec', '2026-12-01', '--spec-dir', specDir);
    expect(result.code).toBe(2);
    expect(result.err[0]).toContain('revision 2026-12-01 is not one the runtime negotiates (compared with 2026-07-28)');
    expect(result.err[1]).toContain('new request method `x/y` (client → server): not served');
  });

  it('a schema URL that cannot be fetched exits 3', async () => {
    const result = await cli('server', MANIFEST, '-o', join(dir, 'never'), '--spec', await unreachableUrl('/2025-11-25/schema.json'));
    expect(result.code).toBe(3);
    expect(result.err[0]).toContain('could not download the schema');
  });
});
