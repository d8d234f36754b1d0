// Issue 6, finding 9: generated validators match `pattern` in linear time. The matcher must answer
// exactly what RegExp answers (differential, fast-check with a fixed seed) and must not blow up on
// the inputs that make RegExp backtrack exponentially.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINEAR_PATTERN_SOURCE } from '../../src/emit/validators/linear-pattern.js';
import { emitValidators } from '../../src/emit/validators/index.js';

type Matcher = { test(s: string): boolean };
const linearPattern = new Function(`${LINEAR_PATTERN_SOURCE}\nreturn $linearPattern;`)() as (source: string, flags: string) => Matcher;

/** Pattern text from a small grammar over the alphabet the inputs use, with every construct the matcher handles. */
const pattern: fc.Arbitrary<string> = fc.letrec<{ alt: string; cat: string; atom: string; quantified: string }>((tie) => ({
  alt: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('cat'), fc.tuple(tie('cat'), tie('cat')).map(([a, b]) => `${a}|${b}`)),
  cat: fc.array(tie('quantified'), { maxLength: 4 }).map((xs) => xs.join('')),
  quantified: fc.tuple(
    tie('atom'),
    fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '{2,}?'),
  ).map(([a, q]) => (q !== '' && (a === '^' || a === '$' || a === '\\b' || a === '\\B') ? a : a + q)),
  atom: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('a', 'b', 'c', '.', '[ab]', '[^a]', '\\d', '\\w', '\\s', '\\W', '^', '$', '\\b', '\\B', '😀', '\\u{1F600}', '\\p{L}', '[a-c😀]', '\\.', '\\uD83D\\uDE00'),
    tie('alt').map((x) => `(${x})`),
    tie('alt').map((x) => `(?:${x})`),
    tie('alt').map((x) => `(?<g>${x})`),
  ),
})).alt;

const input = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1', ' ', '.', '😀', '\n', 'é', '\uD83D'), maxLength: 12 });

describe('the linear pattern matcher', () => {
  it('answers what RegExp answers (random patterns and inputs, fixed seed)', () => {
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 8 }), (source, strings) => {
        let native: RegExp;
        try {
          native = new RegExp(source, 'u');
        } catch {
          return; // The generator grammar can produce a duplicate group name; not a pattern.
        }
        const linear = linearPattern(source, 'u');
        for (const s of strings) expect(linear.test(s), `/${source}/u on ${JSON.stringify(s)}`).toBe(native.test(s));
      }),
      { seed: 6009, numRuns: 4000 },
    );
  });

  it('matches known cases, including code points and the edges of the input', () => {
    const cases: [string, string, boolean][] = [
      ['^(a+)+$', 'aaaa', true],
      ['^\\d{3}-\\d{2,4}$', '123-45678', false],
      ['^[\\p{L}_][\\p{L}\\d_]*$', 'héllo_1', true],
      ['^.$', '😀', true],
      ['^.$', '\n', false],
      ['\\bfoo\\b', 'a foo.', true],
      ['\\bfoo\\b', 'afoo', false],
      ['[]', 'a', false],
      ['^$', '', true],
    ];
    for (const [source, s, expected] of cases) expect(linearPattern(source, 'u').test(s), `/${source}/ ${s}`).toBe(expected);
  });

  it('falls back to RegExp for backreferences and lookaround', () => {
    for (const source of ['(a)\\1', '(?<x>a)\\k<x>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) {
      expect(linearPattern(source, 'u')).toBeInstanceOf(RegExp);
    }
  });

  it('takes linear time on inputs that make RegExp backtrack exponentially', () => {
    const evil = 'a'.repeat(100_000) + '!';
    for (const source of ['^(a+)+$', '(a|a)*b', '(a*)*b', '^(a|aa)+$', '^(\\w+\\s?)*$', '(.*a){12}x']) {
      const started = performance.now();
      expect(linearPattern(source, 'u').test(evil)).toBe(false);
      // RegExp needs longer than the age of the universe here; linear is tens of milliseconds.
      expect(performance.now() - started, source).toBeLessThan(3000);
    }
  });

  it('is what generated validators use for pattern and patternProperties', async () => {
    const root = { $defs: { S: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } }, patternProperties: { '^(b+)+$': { type: 'integer' } } } } };
    const { js } = emitValidators({ root, dialect: '2020-12', entries: [{ exportName: 'validateS', ref: '#/$defs/S', typeName: 'S' }] });
    expect(js).not.toContain('new RegExp("^(a+)+$"');
    expect(js).toContain('$linearPattern;');
    const { validateS } = (await import(`data:text/javascript,${encodeURIComponent(js)}`)) as Record<string, (x: unknown) => boolean>;
    const started = performance.now();
    expect(validateS!({ s: 'a'.repeat(50_000) + '!' })).toBe(false);
    expect(validateS!({ ['b'.repeat(50_000) + '!']: 'x' })).toBe(true);
    expect(validateS!({ bbb: 'x' })).toBe(false);
    expect(validateS!({ s: 'aaa', bb: 2 })).toBe(true);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
