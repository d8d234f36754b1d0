import type { ErrorObject, ValidateFunction } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/emit/validators/ajv-instance.js';
import { emitValidators } from '../../src/emit/validators/index.js';
import { generate, mutations } from './samples.js';
import { REVISIONS, exportNameFor, importEmitted, loadExamples, loadRevision, tempDir, type ValidatorFn } from './support.js';

/**
 * Every definition of every revision, through runtime ajv (the document as published, draft-07 or
 * 2020-12 per its `$schema`) and through the generated standalone validators: same verdict, and
 * the same first problem (path, keyword, message), on the same samples.
 */

const dir = tempDir('validators-differential');
afterAll(() => dir.remove());
const examples = loadExamples();

/**
 * Size budgets for all definitions of a revision, unformatted (measured: 2024-11-05 234 kB,
 * 2025-06-18 281 kB, 2025-11-25 515 kB, 2026-07-28 523 kB): about 20 % headroom.
 */
const SIZE_BUDGET: Record<string, number> = {
  '2024-11-05': 285_000,
  '2025-03-26': 290_000,
  '2025-06-18': 340_000,
  '2025-11-25': 620_000,
  '2026-07-28': 630_000,
  draft: 630_000,
};

/** Values of every JSON type, for any definition. */
const JUNK: unknown[] = [null, true, 0, 1.5, -1, '', 'x', [], [{}], {}, { jsonrpc: '2.0' }];

interface Sample {
  origin: string;
  value: unknown;
}

function samplesFor(defs: Record<string, unknown>, name: string): Sample[] {
  const schema = defs[name];
  const samples: Sample[] = JUNK.map((value, i) => ({ origin: `junk ${i}`, value }));
  const valid: Sample[] = [];
  for (const full of [false, true]) {
    for (let branch = 0; branch < 4; branch++) {
      valid.push({ origin: `generated full=${full} branch=${branch}`, value: generate(defs, schema, { full, branch }) });
    }
  }
  for (const [file, example] of examples.get(name) ?? []) valid.push({ origin: `example ${file}`, value: example });
  for (const sample of valid) {
    samples.push(sample);
    for (const mutation of mutations(defs, schema, sample.value)) {
      samples.push({ origin: `${sample.origin}, ${mutation.description}`, value: mutation.value });
    }
  }
  return samples;
}

/** What must agree: the verdict, and the first problem whole (where, which schema keyword, its params and message). */
function outcome(ok: boolean, errors: readonly Partial<ErrorObject>[] | null | undefined): unknown {
  if (ok) return { ok };
  const first = errors?.[0];
  return { ok, instancePath: first?.instancePath, schemaPath: first?.schemaPath, keyword: first?.keyword, params: first?.params, message: first?.message };
}

describe.each(REVISIONS)('revision %s', (revisionName) => {
  it('runtime ajv and the generated validators agree on every definition', async () => {
    const revision = loadRevision(revisionName);
    const names = Object.keys(revision.defs);
    const { js } = emitValidators({
      root: revision.root,
      dialect: revision.dialect,
      entries: names.map((name) => ({ exportName: exportNameFor(name), ref: `#/${revision.defsKeyword}/${name}`, typeName: name })),
    });
    const generated = await importEmitted(dir, revisionName, js);
    expect(js.length).toBeLessThan(SIZE_BUDGET[revisionName]!);
    // Each definition is compiled once, however many validators reach it.
    expect(js.match(/function validate\d+\(/g)).toHaveLength(names.length);

    const reference = createAjv(revision.dialect, { standalone: false });
    reference.addSchema(revision.root, 'reference');

    const disagreements: string[] = [];
    let total = 0;
    let accepted = 0;
    let generatedAccepted = 0;
    let generatedTotal = 0;
    for (const name of names) {
      const expected = reference.getSchema(`reference#/${revision.defsKeyword}/${name}`) as ValidateFunction;
      const actual = generated[exportNameFor(name)] as ValidatorFn;
      for (const sample of samplesFor(revision.defs, name)) {
        const want = outcome(expected(sample.value), expected.errors);
        const got = outcome(actual(sample.value), actual.errors as ErrorObject[] | null | undefined);
        total++;
        if ((want as { ok: boolean }).ok) accepted++;
        if (sample.origin.startsWith('generated') && !sample.origin.includes(',')) {
          generatedTotal++;
          if ((want as { ok: boolean }).ok) generatedAccepted++;
        }
        if (JSON.stringify(want) !== JSON.stringify(got)) {
          disagreements.push(`${name} (${sample.origin}): runtime ${JSON.stringify(want)} vs generated ${JSON.stringify(got)}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    // The samples mean something: thousands of them, both verdicts well represented, and the
    // generator's "valid" instances mostly valid.
    expect(total).toBeGreaterThan(names.length * 20);
    expect(accepted).toBeGreaterThan(total * 0.1);
    expect(total - accepted).toBeGreaterThan(total * 0.3);
    expect(generatedAccepted).toBeGreaterThan(generatedTotal * 0.9);
  });
});
