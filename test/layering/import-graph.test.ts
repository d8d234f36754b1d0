import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arrowsOf as arrowsUnder, sourceFiles, type Arrow } from './arrows.js';

/**
 * The pipeline's one-way imports (load → model → emit → write, with src/schema a leaf every phase
 * may read), checked on the real import graph of src/ the way test/runtime/imports.test.ts checks
 * the runtime's node:* rule. Each arrow is parsed with the TypeScript compiler, so a type-only
 * import is told apart from one that loads the module.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const arrowsOf = (file: string, text: string): Arrow[] => arrowsUnder(SRC, file, text);

const folderOf = (path: string): string => path.split('/')[0] ?? '';

/** What the arrow breaks, or undefined when the layering allows it. */
function violation(arrow: Arrow): string | undefined {
  const from = folderOf(arrow.from);
  const to = folderOf(arrow.to);
  if (from === to) return undefined;
  const where = `${arrow.from} → ${arrow.to}`;
  if (from === 'schema') return `${where}: src/schema is a leaf and imports no other src folder`;
  if (from === 'load' && to === 'model') return `${where}: load returns documents; the pipeline builds the model`;
  if (from === 'emit' && to === 'load') return `${where}: emitters work from the model, never from load`;
  if ((from === 'check' || from === 'pipeline') && to === 'cli') return `${where}: the CLI parses arguments and prints; ${from} never imports it`;
  if (from === 'emit' && to === 'write' && !(arrow.typeOnly && arrow.to === 'write/planned-file.ts')) {
    return `${where}: emitters may only name the PlannedFile type (a type-only import of write/planned-file.ts)`;
  }
  return undefined;
}

describe('the import graph of src/', () => {
  const arrows = sourceFiles(SRC).flatMap((file) => arrowsOf(file, readFileSync(file, 'utf8')));

  it('has arrows between every phase to check', () => {
    const folders = new Set(arrows.map((a) => `${folderOf(a.from)}→${folderOf(a.to)}`));
    for (const edge of ['load→schema', 'model→schema', 'emit→schema', 'emit→model', 'emit→write', 'cli→load', 'cli→emit', 'pipeline→load', 'pipeline→model', 'check→pipeline', 'cli→pipeline']) {
      expect(folders).toContain(edge);
    }
  });

  it('every arrow points the way the pipeline flows (load → model → emit → write; schema a leaf)', () => {
    expect(arrows.map(violation).filter((v) => v !== undefined)).toEqual([]);
  });

  it('every arrow resolves to a file that exists, so none escapes the check by a wrong path', () => {
    const files = new Set(sourceFiles(SRC).map((f) => relative(SRC, f).split('\\').join('/')));
    expect(arrows.filter((a) => !files.has(a.to) && !files.has(a.to.replace(/\.ts$/, '.d.ts'))).map((a) => `${a.from} → ${a.to}`)).toEqual([]);
  });

  it('the check itself catches each forbidden arrow and lets the allowed ones pass', () => {
    const at = (path: string): string => join(SRC, path);
    const found = (path: string, text: string): string[] =>
      arrowsOf(at(path), text)
        .map(violation)
        .filter((v): v is string => v !== undefined);
    expect(found('schema/x.ts', "import { a } from '../load/a.js';")).toHaveLength(1);
    expect(found('load/x.ts', "import type { ServiceModel } from '../model/service-model.js';")).toHaveLength(1);
    expect(found('load/x.ts', "export { buildServiceModel } from '../model/service.js';")).toHaveLength(1);
    expect(found('emit/server/x.ts', "const m = await import('../../load/spec.js');")).toHaveLength(1);
    expect(found('emit/x.ts', "type T = import('../load/spec.js').LoadedSpec;")).toHaveLength(1);
    expect(found('emit/x.ts', "import { hasBanner } from '../write/render.js';")).toHaveLength(1);
    expect(found('emit/x.ts', "import { type PlannedFile, renderFile } from '../write/planned-file.js';")).toHaveLength(1);
    expect(found('emit/x.ts', "import type { WriteReport } from '../write/writer.js';")).toHaveLength(1);
    expect(found('emit/x.ts', "import type { PlannedFile } from '../write/planned-file.js';")).toEqual([]);
    expect(found('emit/x.ts', "import { type FileFormat, type PlannedFile } from '../write/planned-file.js';")).toEqual([]);
    expect(found('check/x.ts', "import { checkServer } from '../cli/server-command.js';")).toHaveLength(1);
    expect(found('pipeline/x.ts', "import type { Console } from '../cli/output.js';")).toHaveLength(1);
    expect(found('check/x.ts', "import { checkServer } from '../pipeline/server.js';")).toEqual([]);
    expect(found('model/x.ts', "import { as2020 } from '../load/draft07.js';")).toEqual([]);
    expect(found('schema/x.ts', "import { a } from './keywords.js';\nimport addFormats from 'ajv-formats';")).toEqual([]);
  });

  it('src/schema imports nothing outside itself but packages and node:* built-ins', () => {
    const schemaFiles = sourceFiles(join(SRC, 'schema'));
    expect(schemaFiles.length).toBeGreaterThan(0);
    for (const file of schemaFiles) {
      for (const arrow of arrowsOf(file, readFileSync(file, 'utf8'))) expect(dirname(arrow.to)).toBe('schema');
    }
  });
});
