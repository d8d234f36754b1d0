import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/load/diagnostics.js';
import { BUNDLED_SPEC_DIR, KNOWN_REVISIONS, resolveSpec, specUrl, type LoadedSpec } from '../../src/load/spec.js';
import { specDir } from './helpers.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'mcp-gen-spec-'));
}

/** Resolves, expecting an InputError; returns it for inspection. */
async function inputError(promise: Promise<LoadedSpec>): Promise<InputError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

const offline: typeof fetch = () => Promise.reject(new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND raw.githubusercontent.com') }));

function servingText(text: string, calls: string[] = []): typeof fetch {
  return (input) => {
    calls.push(String(input));
    return Promise.resolve(new Response(text, { status: 200 }));
  };
}

describe('resolveSpec by revision', () => {
  // These tests decide where schemas come from; the caller's environment must not.
  const saved = { spec: process.env['MCP_SPEC_DIR'], cache: process.env['MCP_GEN_CACHE_DIR'] };
  beforeEach(() => {
    delete process.env['MCP_SPEC_DIR'];
    delete process.env['MCP_GEN_CACHE_DIR'];
  });
  afterEach(() => {
    for (const [name, value] of [['MCP_SPEC_DIR', saved.spec], ['MCP_GEN_CACHE_DIR', saved.cache]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('loads every known revision from the spec dir, normalized to $defs', async () => {
    for (const revision of KNOWN_REVISIONS) {
      const spec = await resolveSpec(revision, { specDir, fetch: offline });
      expect(spec.revision).toBe(revision);
      expect(spec.dialect).toBe(revision < '2025-11-25' ? 'draft-07' : '2020-12');
      expect(Object.keys(spec.defs)).toContain('JSONRPCRequest');
      const text = JSON.stringify(spec.defs);
      expect(text).not.toContain('#/definitions/');
      expect(text).toContain('"$ref":"#/$defs/');
    }
  });

  it('reads MCP_SPEC_DIR and MCP_GEN_CACHE_DIR when no option says otherwise', async () => {
    process.env['MCP_SPEC_DIR'] = specDir;
    expect((await resolveSpec('2025-06-18', { fetch: offline })).source).toBe(join(specDir, '2025-06-18', 'schema.json'));
    delete process.env['MCP_SPEC_DIR'];
    const cacheDir = tempDir();
    process.env['MCP_GEN_CACHE_DIR'] = cacheDir;
    const text = readFileSync(join(specDir, '2025-06-18', 'schema.json'), 'utf8');
    await resolveSpec('2025-06-18', { bundledDir: false, fetch: servingText(text) });
    expect(readFileSync(join(cacheDir, 'spec', '2025-06-18', 'schema.json'), 'utf8')).toBe(text);
  });

  it('rejects an unknown revision and lists the known ones', async () => {
    const error = await inputError(resolveSpec('2024-13-01', { specDir }));
    expect(error.diagnostics[0]!.message).toBe('unknown revision "2024-13-01"');
    for (const revision of KNOWN_REVISIONS) expect(error.message).toContain(revision);
  });

  it('a spec dir adds revisions: one it lacks still comes from the shipped copies', async () => {
    const empty = tempDir();
    const spec = await resolveSpec('2025-06-18', { specDir: empty, fetch: offline });
    expect(spec.source).toBe(join(BUNDLED_SPEC_DIR, '2025-06-18', 'schema.json'));
  });

  it('with no spec dir, revision names come from the copies shipped in the package, offline', async () => {
    for (const revision of KNOWN_REVISIONS) {
      const spec = await resolveSpec(revision, { cacheDir: tempDir(), fetch: offline });
      expect(spec.source).toBe(join(BUNDLED_SPEC_DIR, revision, 'schema.json'));
      expect(spec.warnings).toEqual([]);
    }
  });

  it('downloads into the cache, then reads the cache without the network', async () => {
    const cacheDir = tempDir();
    const text = readFileSync(join(specDir, '2025-03-26', 'schema.json'), 'utf8');
    const calls: string[] = [];
    const first = await resolveSpec('2025-03-26', { bundledDir: false, cacheDir, fetch: servingText(text, calls) });
    expect(calls).toEqual([specUrl('2025-03-26')]);
    expect(calls[0]).toBe('https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/main/schema/2025-03-26/schema.json');
    expect(readFileSync(join(cacheDir, 'spec', '2025-03-26', 'schema.json'), 'utf8')).toBe(text);
    const second = await resolveSpec('2025-03-26', { bundledDir: false, cacheDir, fetch: offline });
    expect(second.defs).toEqual(first.defs);
    expect(second.source).toBe(join(cacheDir, 'spec', '2025-03-26', 'schema.json'));
  });

  it('offline with nothing cached: a clear error that names the URL and the way out', async () => {
    const error = await inputError(resolveSpec('2025-11-25', { bundledDir: false, cacheDir: tempDir(), fetch: offline }));
    const [problem] = error.diagnostics;
    expect(problem!.file).toBe(specUrl('2025-11-25'));
    expect(problem!.message).toContain('could not download the schema');
    expect(problem!.message).toContain('ENOTFOUND');
    expect(problem!.hint).toContain('--spec-dir');
  });

  it('offline with a cached draft: uses it and warns that it may be stale', async () => {
    const cacheDir = tempDir();
    mkdirSync(join(cacheDir, 'spec', 'draft'), { recursive: true });
    writeFileSync(join(cacheDir, 'spec', 'draft', 'schema.json'), readFileSync(join(specDir, 'draft', 'schema.json')));
    const spec = await resolveSpec('draft', { bundledDir: false, cacheDir, fetch: offline });
    expect(spec.revision).toBe('draft');
    expect(spec.warnings.map((w) => w.message)).toEqual(['could not refresh the draft schema; using the cached copy']);
  });

  it('does not cache a download that is not a schema', async () => {
    const cacheDir = tempDir();
    const error = await inputError(resolveSpec('2025-06-18', { bundledDir: false, cacheDir, fetch: servingText('<html>portal</html>') }));
    expect(error.diagnostics[0]!.message).toMatch(/^invalid JSON/);
    const retry = await inputError(resolveSpec('2025-06-18', { bundledDir: false, cacheDir, fetch: offline }));
    expect(retry.diagnostics[0]!.message).toContain('could not download');
  });

  it('reports an HTTP error status', async () => {
    const notFound: typeof fetch = () => Promise.resolve(new Response('nope', { status: 404, statusText: 'Not Found' }));
    const error = await inputError(resolveSpec('2025-06-18', { bundledDir: false, cacheDir: tempDir(), fetch: notFound }));
    expect(error.diagnostics[0]!.message).toBe('could not download the schema: HTTP 404 Not Found');
  });
});

describe('resolveSpec by path or URL', () => {
  it('reads a file and takes the revision from its folder', async () => {
    const spec = await resolveSpec(join(specDir, '2025-06-18', 'schema.json'));
    expect(spec.revision).toBe('2025-06-18');
    expect(spec.dialect).toBe('draft-07');
  });

  it('fetches a URL', async () => {
    const text = readFileSync(join(specDir, '2026-07-28', 'schema.json'), 'utf8');
    const spec = await resolveSpec('https://example.test/schema/2026-07-28/schema.json', { fetch: servingText(text) });
    expect(spec.revision).toBe('2026-07-28');
    expect(spec.source).toBe('https://example.test/schema/2026-07-28/schema.json');
  });

  it('reports a missing file', async () => {
    const path = join(tempDir(), 'nope', 'schema.json');
    const error = await inputError(resolveSpec(path, { revision: '2025-06-18' }));
    expect(error.diagnostics).toEqual([{ file: path, line: 0, column: 0, pointer: '', message: 'no such file' }]);
  });

  it('reports invalid JSON at the line and column of the mistake', async () => {
    const path = join(tempDir(), 'schema.json');
    writeFileSync(path, '{\n  "$defs": {\n    "A": { "type": "string" },\n  }\n}\n');
    const error = await inputError(resolveSpec(path, { revision: 'x' }));
    const [problem] = error.diagnostics;
    expect(problem).toMatchObject({ file: path, line: 4, column: 3 });
    expect(problem!.message).toBe("invalid JSON: expected a property name in double quotes, found '}'");
  });

  it('reports a schema with no definitions', async () => {
    const dir = tempDir();
    for (const [name, text] of [
      ['none.json', '{ "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object" }'],
      ['empty.json', '{ "definitions": {} }'],
    ] as const) {
      writeFileSync(join(dir, name), text);
      const error = await inputError(resolveSpec(join(dir, name), { revision: '2025-06-18' }));
      expect(error.diagnostics[0]!.message).toBe('the schema has no definitions');
    }
  });

  it('refuses a document far larger than any protocol schema', async () => {
    const path = join(tempDir(), 'schema.json');
    writeFileSync(path, `{ "$defs": { "A": {} } }${' '.repeat(16 * 1024 * 1024)}`);
    const error = await inputError(resolveSpec(path, { revision: '2025-06-18' }));
    expect(error.diagnostics[0]!.message).toMatch(/^too large for a protocol schema/);
  });

  it('asks for the revision when the path does not tell it', async () => {
    const path = join(tempDir(), 'schema.json');
    writeFileSync(path, '{ "$defs": { "A": { "type": "string" } } }');
    const error = await inputError(resolveSpec(path));
    expect(error.diagnostics[0]!.message).toBe('cannot tell which protocol revision this schema is');
  });
});

describe('normalization', () => {
  function load(document: unknown, revision = 'test'): Promise<LoadedSpec> {
    const path = join(tempDir(), 'schema.json');
    writeFileSync(path, JSON.stringify(document));
    return resolveSpec(path, { revision });
  }

  it('rewrites draft-07 definitions refs, keeping deeper pointer segments', async () => {
    const spec = await load({
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { A: { properties: { b: { $ref: '#/definitions/B/properties/c' } } }, B: { properties: { c: { type: 'string' } } } },
    });
    expect(spec.dialect).toBe('draft-07');
    expect(spec.defs['A']).toEqual({ properties: { b: { $ref: '#/$defs/B/properties/c' } } });
  });

  it('strips codegen keywords, but never a property that happens to share their name', async () => {
    const spec = await load({
      $defs: {
        A: {
          type: 'object',
          tsType: 'string; export const pwn = 1',
          properties: { tsType: { type: 'string', tsEnumNames: ['X'] }, extends: { type: 'number' } },
          extends: ['Evil'],
        },
      },
    });
    expect(spec.defs['A']).toEqual({ type: 'object', properties: { tsType: { type: 'string' }, extends: { type: 'number' } } });
    expect(spec.warnings.map((w) => w.pointer).sort()).toEqual(['/$defs/A/extends', '/$defs/A/properties/tsType/tsEnumNames', '/$defs/A/tsType']);
  });

  it('keeps a __proto__ property as data', async () => {
    const spec = await load(JSON.parse('{ "$defs": { "A": { "properties": { "__proto__": { "type": "string" } }, "required": ["__proto__"] } } }'));
    const properties = (spec.defs['A'] as { properties: object }).properties;
    expect(Object.keys(properties)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it('refuses refs that leave the document or name no definition, all at once', async () => {
    const error = await inputError(
      load({
        $defs: {
          A: { properties: { x: { $ref: 'https://evil.test/s.json' }, y: { $ref: '#/$defs/Missing' }, z: { $ref: '../other.json#/$defs/A' } } },
        },
      }),
    );
    expect(error.diagnostics.map((d) => d.pointer)).toEqual([
      '/$defs/A/properties/x/$ref',
      '/$defs/A/properties/y/$ref',
      '/$defs/A/properties/z/$ref',
    ]);
  });

  it('refuses an unknown dialect and a document with both definition keywords', async () => {
    const draft4 = await inputError(load({ $schema: 'http://json-schema.org/draft-04/schema#', definitions: { A: {} } }));
    expect(draft4.diagnostics[0]!.message).toContain('unsupported JSON Schema dialect');
    const both = await inputError(load({ definitions: { A: {} }, $defs: { B: {} } }));
    expect(both.diagnostics[0]!.message).toContain('both');
  });
});
