import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/emit/validators/ajv-instance.js';
import { emitValidators } from '../../src/emit/validators/index.js';
import { INLINE_FORMAT_NAMES } from '../../src/emit/validators/inline-helpers.js';
import { importEmitted, tempDir, type ValidatorFn } from './support.js';

/**
 * The format checks mcp-gen writes into generated validators (in place of ajv-formats' functions)
 * against ajv-formats itself, which runtime ajv uses. They agree except where ajv-formats is
 * looser than the RFC; each such case is listed with both verdicts.
 */

const CORPUS: Record<string, unknown[]> = {
  date: ['2024-02-29', '2023-02-29', '2000-02-29', '1900-02-29', '2024-12-31', '2024-04-31', '2024-13-01', '2024-00-10',
    '2024-01-00', '24-01-01', '2024-1-01', '', '2024-01-01T00:00:00Z', '２０２４-01-01', 12],
  time: ['12:00:00Z', '12:00:00z', '12:00:00.123+05:30', '23:59:60Z', '22:59:60Z', '00:59:60+01:00', '23:59:60+01:00',
    '12:00:00', '24:00:00Z', '12:60:00Z', '12:00:61Z', '12:00:00+24:00', '12:00:00+05:60', '1:00:00Z', ''],
  'date-time': ['2024-01-01T12:00:00Z', '2024-01-01t12:00:00z', '2024-02-30T00:00:00Z', '2024-01-01T12:00:00',
    '2024-01-01', '2024-01-01T12:00:00ZZ', '2024-01-01T23:59:60Z', '2024-01-01TT12:00:00Z', 'T12:00:00Z'],
  'iso-time': ['12:00:00', '12:00:00Z', '12:00:00.5-03:00', '25:00:00', 'noon'],
  'iso-date-time': ['2024-01-01T12:00:00', '2024-01-01 12:00:00', '2024-01-01T12:00:00Z', '2024-01-01', '2024-01-01X12:00:00'],
  uri: ['https://example.com', 'https://example.com/a/b?c=d#e', 'file:///home/u/x.txt', 'urn:isbn:0451450523',
    'mailto:a@b.c', 'https://[::1]:8080/', 'https://[2001:db8::7]/x', 'https://[::ffff:192.0.2.1]/', 'https://[v1.x]/',
    'https://[zz::1]/', 'https://[1:2:3:4:5:6:7:8:9]/', 'http://a b', '/relative/path', 'relative', '//host/path',
    'https://example.com/%zz', 'https://example.com/%41', 'HTTP://EXAMPLE.COM', '1http://x', 'https://example.com/ä',
    'https://user:pw@host:1/p', 'data:text/plain;base64,SGk=', 'https://example.com/{x}', 'a:b:c', 'https://e.com/a#b#c',
    ''],
  byte: ['', 'aGk=', 'aGk', 'aGVsbG8=', 'aGVsbG8gd29ybGQ=', 'a===', 'ab=c', 'aGk=aGk=', 'a-b_', 'ab\ncd'],
  regex: ['^a+$', '[', '(?<n>x)\\k<n>', '\\p{L}+', 'a{2,1}', '(', 'a)', '[\\w-]+'],
  int32: [1, 2147483647, 2147483648, -2147483648, -2147483649, 1.5, 0, 'abc'],
  int64: [1, 1.5, 2 ** 53, -(2 ** 60), 'abc'],
  float: [1.5, 0, -1e300, 'abc'],
  double: [1.5, 0, -1e300, 'abc'],
};

/** Where ajv-formats accepts what the RFC does not (or the reverse): `[format, value, ours, ajv-formats]`. */
const DELIBERATE: [string, unknown, boolean, boolean][] = [
  // RFC 3339 offsets are ±hh:mm; ajv-formats also takes ±hh and ±hhmm.
  ['time', '12:00:00+05', false, true],
  ['time', '12:00:00+0530', false, true],
  // RFC 3339 date-time separates with T (or t); ajv-formats also takes any whitespace.
  ['date-time', '2024-01-01 12:00:00Z', false, true],
  // RFC 3986 allows an empty path after the scheme; ajv-formats requires something.
  ['uri', 'urn:', true, false],
  // A port is digits. ajv-formats reads "//host:port/" as "/", an empty authority, then a path.
  ['uri', 'https://e.com:port/', false, true],
  // ajv-formats' base64 pattern is multi-line: any line that is base64 (even an empty one) passes.
  ['byte', 'QUJD\nQUJD', false, true],
  ['byte', 'not base64!\n', false, true],
  // A "regex" must compile the way ajv compiles `pattern`, with the u flag; ajv-formats compiles
  // without it, where `\Z` is an identity escape.
  ['regex', '\\Z', false, true],
];

const dir = tempDir('validators-formats');
afterAll(() => dir.remove());

const formats = Object.keys(CORPUS);
let generated: Record<string, ValidatorFn>;
const reference = createAjv('2020-12', { standalone: false });

beforeAll(async () => {
  const defs = Object.fromEntries(formats.map((format, i) => [`F${i}`, { format }]));
  const { js } = emitValidators({
    root: { $defs: defs },
    dialect: '2020-12',
    entries: formats.map((_, i) => ({ exportName: `validateF${i}`, ref: `#/$defs/F${i}`, typeName: 'unknown' })),
  });
  expect(js).not.toMatch(/\brequire\(/);
  generated = await importEmitted(dir, 'formats', js);
});

describe('inlined format checks', () => {
  it('cover every function format of ajv-formats', () => {
    expect([...INLINE_FORMAT_NAMES].sort()).toEqual([...formats].sort());
  });

  it('agree with ajv-formats on the corpus, except the listed cases', () => {
    const verdicts: [string, unknown, boolean, boolean][] = [];
    for (const [i, format] of formats.entries()) {
      const ours = generated[`validateF${i}`]!;
      const theirs = reference.compile({ format });
      for (const value of [...CORPUS[format]!, ...DELIBERATE.filter(([f]) => f === format).map(([, v]) => v)]) {
        verdicts.push([format, value, ours(value), theirs(value) as boolean]);
      }
    }
    const differences = verdicts.filter(([, , ours, theirs]) => ours !== theirs);
    expect(differences).toEqual(DELIBERATE);
  });

  it('accept and reject what the RFCs say', () => {
    const accepts = (format: string, value: unknown): boolean => generated[`validateF${formats.indexOf(format)}`]!(value);
    expect(accepts('date', '2024-02-29')).toBe(true);
    expect(accepts('date', '2023-02-29')).toBe(false);
    expect(accepts('time', '00:59:60+01:00')).toBe(true); // 23:59:60 UTC, a leap second
    expect(accepts('time', '23:59:60+01:00')).toBe(false);
    expect(accepts('uri', 'https://[::ffff:192.0.2.1]/')).toBe(true);
    expect(accepts('uri', 'https://[1:2:3:4:5:6:7:8:9]/')).toBe(false);
    expect(accepts('uri', 'relative/path')).toBe(false);
    expect(accepts('byte', 'aGk=')).toBe(true);
    expect(accepts('byte', 'aGk')).toBe(false);
    expect(accepts('regex', '\\p{L}+')).toBe(true);
    expect(accepts('int32', 2147483648)).toBe(false);
    expect(accepts('int32', 'not a number: formats of numbers ignore strings')).toBe(true);
  });
});
