/**
 * Issue 6, finding 4: the standard formats ajv-formats lacks (iri, iri-reference, idn-email,
 * idn-hostname) once made a manifest fail with "unknown format". They are validated by checkers
 * of our own (src/schema/formats.ts): generated validators and in-process ajv alike.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/emit/validators/ajv-instance.js';
import { emitValidators } from '../../src/emit/validators/index.js';
import { EXTRA_FORMATS } from '../../src/schema/formats.js';
import { loadManifest } from '../../src/pipeline/manifest.js';
import { tempProject } from '../manifest/helpers.js';
import { importEmitted, tempDir, type ValidatorFn } from './support.js';

/** `[value, verdict]` per format: what RFC 3987, 5890/5891 and 6531 say. */
const CORPUS: Record<string, Array<[string, boolean]>> = {
  iri: [
    ['https://例え.jp/パス?q=値#frag', true],
    ['https://example.com/a?b=c', true],
    ['urn:isbn:0451450523', true],
    ['mailto:josé@exämple.de', true],
    ['https://x/?q=\uE000', true], // private use: in the query only
    ['https://x/\uE000', false],
    ['relative/パス', false],
    ['https://x/\u202Eevil', false], // bidi formatting characters are not allowed
    ['https://x/\u200Fa', false],
    ['https://x/a b', false],
    ['https://x/\uFFFE', false], // a noncharacter
    ['パス:x', false], // non-ASCII scheme
    ['', false],
  ],
  'iri-reference': [
    ['パス/x?y', true],
    ['#frag', true],
    ['', true],
    ['//host/ü', true],
    ['https://例え.jp/', true],
    ['a b', false],
    ['x/\u202E', false],
    ['%zz', false],
  ],
  'idn-email': [
    ['用户@例子.广告', true],
    ['José.Ñoño@exämple.de', true],
    ['plain@example.com', true],
    ['"quoted local"@example.com', true],
    ['a@[127.0.0.1]', true],
    ['a@[IPv6:2001:db8::1]', true],
    ['no-at', false],
    ['@example.com', false],
    ['a@-bad.com', false],
    ['a..b@example.com', false],
    ['a b@example.com', false],
    ['a@[999.0.0.1]', false],
  ],
  'idn-hostname': [
    ['exämple.de', true],
    ['例子。广告', true], // ideographic full stop separates labels
    ['xn--bcher-kva.example', true],
    ['localhost', true],
    ['example.com.', true],
    ['-bad', false],
    ['bad-', false],
    ['ab--c', false],
    ['a'.repeat(64), false],
    [`${'a'.repeat(63)}.`.repeat(4) + 'a', false], // longer than 253
    ['\u0301abc', false], // a combining mark may not start a label
    ['a..b', false],
    ['', false],
    ['a_b', false],
  ],
};

const formats = Object.keys(CORPUS);
const dir = tempDir('validators-extra-formats');
afterAll(() => dir.remove());
let generated: Record<string, ValidatorFn>;

beforeAll(async () => {
  const { js, warnings } = emitValidators({
    root: { $defs: Object.fromEntries(formats.map((format, i) => [`F${i}`, { format }])) },
    dialect: '2020-12',
    entries: formats.map((_, i) => ({ exportName: `validateF${i}`, ref: `#/$defs/F${i}`, typeName: 'unknown' })),
  });
  expect(warnings).toEqual([]);
  expect(js).not.toMatch(/\brequire\(/);
  generated = await importEmitted(dir, 'extra-formats', js);
});

describe('standard formats ajv-formats lacks', () => {
  it('are exactly the four 2020-12 formats missing from ajv-formats', () => {
    expect(Object.keys(EXTRA_FORMATS).sort()).toEqual([...formats].sort());
  });

  for (const [i, format] of formats.entries()) {
    it(`${format}: generated validators and in-process ajv give the RFC's verdict`, () => {
      const inProcess = createAjv('2020-12', { standalone: false }).compile({ format });
      const wrong = CORPUS[format]!.filter(([value, verdict]) => generated[`validateF${i}`]!(value) !== verdict || inProcess(value) !== verdict);
      expect(wrong).toEqual([]);
    });
  }

  it('a manifest using them loads without problems or warnings, in both dialects', async () => {
    for (const dialect of ['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema#']) {
      const properties = formats.map((f, i) => `        p${i}: { type: string, format: ${f} }`).join('\n');
      const root = await tempProject({
        'manifest.yaml': `server: { name: s, version: 1.0.0 }\ntools:\n  - name: t\n    inputSchema:\n      $schema: '${dialect}'\n      type: object\n      properties:\n${properties}\n`,
      });
      const loaded = await loadManifest(path.join(root, 'manifest.yaml'));
      expect(loaded.warnings).toEqual([]);
      expect(Object.keys((loaded.model.tools[0]!.inputSchema as { properties: object }).properties)).toHaveLength(4);
    }
  });
});
