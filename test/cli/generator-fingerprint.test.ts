/**
 * The generator's fingerprint (generator-fingerprint.ts) stands for its modules by their file
 * statuses: it must change when any module is rewritten, even to the same size, and stay put when
 * nothing that runs changed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeFingerprint } from '../../src/pipeline/generator-fingerprint.js';

let root: string;
let schemaDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mcp-gen-fingerprint-'));
  schemaDir = join(root, 'schema');
  mkdirSync(schemaDir);
  writeFileSync(join(schemaDir, 'manifest.validator.cjs'), 'module.exports = () => true;\n');
  mkdirSync(join(root, 'code', 'emit'), { recursive: true });
  writeFileSync(join(root, 'code', 'emit', 'a.js'), 'export const a = 1;\n');
  writeFileSync(join(root, 'code', 'emit', 'a.d.ts'), 'export declare const a = 1;\n');
  writeFileSync(join(root, 'code', 'emit', 'a.js.map'), '{}\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the generator fingerprint', () => {
  it('is the same for the same modules, run after run', () => {
    expect(codeFingerprint(join(root, 'code'), schemaDir)).toBe(codeFingerprint(join(root, 'code'), schemaDir));
  });

  it('changes when a module is rewritten to the same size, or a module is added', () => {
    const before = codeFingerprint(join(root, 'code'), schemaDir);
    writeFileSync(join(root, 'code', 'emit', 'a.js'), 'export const a = 2;\n');
    const rewritten = codeFingerprint(join(root, 'code'), schemaDir);
    expect(rewritten).not.toBe(before);
    writeFileSync(join(root, 'code', 'b.js'), '');
    expect(codeFingerprint(join(root, 'code'), schemaDir)).not.toBe(rewritten);
  });

  it('ignores declarations and source maps, which change nothing the generator does', () => {
    const before = codeFingerprint(join(root, 'code'), schemaDir);
    writeFileSync(join(root, 'code', 'emit', 'a.d.ts'), 'export declare const a: 1;\n');
    writeFileSync(join(root, 'code', 'emit', 'a.js.map'), '{"version":3}\n');
    expect(codeFingerprint(join(root, 'code'), schemaDir)).toBe(before);
  });

  it('changes when a precompiled validator of schema/ is rewritten', () => {
    const before = codeFingerprint(join(root, 'code'), schemaDir);
    writeFileSync(join(schemaDir, 'manifest.validator.cjs'), 'module.exports = () => !!1;\n');
    expect(codeFingerprint(join(root, 'code'), schemaDir)).not.toBe(before);
  });
});
