// Issue 6, finding 6: JSON text like 1e400 parses to Infinity; JSON cannot carry it back (it
// serializes as null), so generated validators refuse non-finite numbers for number and integer.
import { afterAll, describe, expect, it } from 'vitest';
import { emitValidators } from '../../src/emit/validators/index.js';
import { importEmitted, tempDir } from './support.js';

const dir = tempDir('validators-non-finite');
afterAll(() => dir.remove());

describe.each(['2020-12', 'draft-07'] as const)('generated %s validators and non-finite numbers', (dialect) => {
  const defs = dialect === '2020-12' ? '$defs' : 'definitions';
  const root = {
    [defs]: {
      N: { type: 'number' },
      I: { type: 'integer' },
      Either: { type: ['integer', 'string'] },
      Bounded: { type: 'number', minimum: 0 },
    },
  };
  const entries = ['N', 'I', 'Either', 'Bounded'].map((name) => ({ exportName: `validate${name}`, ref: `#/${defs}/${name}`, typeName: name }));

  it('refuses Infinity, -Infinity and NaN and accepts finite numbers', async () => {
    const v = await importEmitted(dir, `non-finite-${dialect}`, emitValidators({ root, dialect, entries }).js);
    for (const name of ['validateN', 'validateI', 'validateEither', 'validateBounded']) {
      const validate = v[name]!;
      expect([Infinity, -Infinity, NaN, JSON.parse('1e400')].map((x) => validate(x)), name).toEqual([false, false, false, false]);
      expect(validate(3), name).toBe(true);
    }
    expect(v['validateN']!(-1.5)).toBe(true);
    expect(v['validateI']!(1.5)).toBe(false);
  });
});
