import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDiagnostics, loadModel, specDir, typeCheck, typesFor, writeTempProject } from './helpers.js';

const REVISION = '2026-07-28';

interface Example {
  type: string;
  file: string;
  value: unknown;
}

function readExamples(): Example[] {
  const root = join(specDir, REVISION, 'examples');
  return readdirSync(root)
    .sort()
    .flatMap((type) =>
      readdirSync(join(root, type))
        .filter((file) => file.endsWith('.json'))
        .sort()
        .map((file) => ({ type, file: `${type}/${file}`, value: JSON.parse(readFileSync(join(root, type, file), 'utf8')) as unknown })),
    );
}

/** One `const` per line, so a diagnostic's line says which example it is about. */
function examplesModule(entries: ReadonlyArray<{ type: string; value: unknown }>): { text: string; firstLine: number } {
  const types = [...new Set(entries.map((e) => e.type))].sort();
  const header = `import type { ${types.join(', ')} } from './types.js';\n`;
  const body = entries.map((e, i) => `export const x${i}: ${e.type} = ${JSON.stringify(e.value)};\n`).join('');
  return { text: header + body, firstLine: 2 };
}

describe(`the spec's ${REVISION} example messages`, () => {
  it('each type-checks as its type; with a required field removed, each fails on its own line', async () => {
    const model = await loadModel(REVISION);
    const examples = readExamples();
    expect(examples.length).toBeGreaterThan(100);

    // Mutants: drop the first required top-level property the example actually has.
    const mutants: Array<{ type: string; value: unknown; label: string }> = [];
    for (const example of examples) {
      const schema = model.definitions[example.type]?.schema as { required?: string[] } | undefined;
      const value = example.value as Record<string, unknown>;
      const field = schema?.required?.find((name) => Object.hasOwn(value, name));
      if (field === undefined) continue;
      const { [field]: _removed, ...rest } = value;
      mutants.push({ type: example.type, value: rest, label: `${example.file} without ${field}` });
    }
    expect(mutants.length).toBeGreaterThan(80);

    const valid = examplesModule(examples);
    const broken = examplesModule(mutants);
    const dir = writeTempProject({ 'types.ts': await typesFor(REVISION), 'examples.ts': valid.text, 'mutants.ts': broken.text });
    const diagnostics = typeCheck(dir, ['examples.ts', 'mutants.ts']);

    expect(describeDiagnostics(diagnostics.filter((d) => d.file !== 'mutants.ts'))).toBe('');
    const failingLines = new Set(diagnostics.filter((d) => d.file === 'mutants.ts').map((d) => d.line));
    const passingMutants = mutants.filter((_, i) => !failingLines.has(broken.firstLine + i)).map((m) => m.label);
    expect(passingMutants).toEqual([]);
    expect([...failingLines].every((line) => line >= broken.firstLine && line < broken.firstLine + mutants.length)).toBe(true);
  });
});
