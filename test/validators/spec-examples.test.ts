import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitValidators } from '../../src/emit/validators/index.js';
import { mutations } from './samples.js';
import { exportNameFor, importEmitted, loadExamples, loadRevision, tempDir, type ValidatorFn } from './support.js';

/**
 * The spec's example messages (2026-07-28/examples/<Type>/*.json, one folder per definition):
 * each is accepted by its type's generated validator, and copies broken in ways the schema
 * forbids are rejected.
 */

const revision = loadRevision('2026-07-28');
const examples = loadExamples();
const dir = tempDir('validators-examples');
let validators: Record<string, ValidatorFn>;

beforeAll(async () => {
  const entries = [...examples.keys()].map((type) => ({
    exportName: exportNameFor(type),
    ref: `#/${revision.defsKeyword}/${type}`,
    typeName: type,
  }));
  const { js } = emitValidators({ root: revision.root, dialect: revision.dialect, entries });
  validators = await importEmitted(dir, 'examples', js);
});
afterAll(() => dir.remove());

describe('2026-07-28 examples', () => {
  it('name folders after definitions of the schema', () => {
    expect(examples.size).toBeGreaterThan(50);
    const unknown = [...examples.keys()].filter((type) => !(type in revision.defs));
    expect(unknown).toEqual([]);
  });

  it('are each accepted by their type', () => {
    const rejected: string[] = [];
    let count = 0;
    for (const [type, files] of examples) {
      const validate = validators[exportNameFor(type)]!;
      for (const [file, example] of files) {
        count++;
        if (!validate(example)) rejected.push(`${type}/${file}: ${JSON.stringify(validate.errors)}`);
      }
    }
    expect(rejected).toEqual([]);
    expect(count).toBeGreaterThan(100);
  });

  it('are rejected once mutated against their schema', () => {
    const accepted: string[] = [];
    let count = 0;
    const typesWithPropertyMutations = new Set<string>();
    for (const [type, files] of examples) {
      const validate = validators[exportNameFor(type)]!;
      for (const [file, example] of files) {
        for (const mutation of mutations(revision.defs, revision.defs[type], example)) {
          count++;
          if (mutation.description !== 'whole value of the wrong type') typesWithPropertyMutations.add(type);
          if (validate(mutation.value)) accepted.push(`${type}/${file}: ${mutation.description}`);
        }
      }
    }
    expect(accepted).toEqual([]);
    expect(count).toBeGreaterThan(300);
    // Unions (ContentBlock-like folders) get only whole-value mutations; everything else more.
    expect(typesWithPropertyMutations.size).toBeGreaterThan(examples.size * 0.8);
  });
});
