/**
 * The generator's fingerprint (generator-fingerprint.ts) stands for its modules by their file
 * statuses: it must change when any module is rewritten, even to the same size, and stay put when
 * nothing that runs changed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeFingerprint } from '../../src/cli/generator-fingerprint.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mcp-gen-fingerprint-'));
  mkdirSync(join(root, 'emit'));
  writeFileSync(join(root, 'emit', 'a.js'), 'export const a = 1;\n');
  writeFileSync(join(root, 'emit', 'a.d.ts'), 'export declare const a = 1;\n');
  writeFileSync(join(root, 'emit', 'a.js.map'), '{}\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the generator fingerprint', () => {
  it('is the same for the same modules, run after run', () => {
    expect(codeFingerprint(root)).toBe(codeFingerprint(root));
  });

  it('changes when a module is rewritten to the same size, or a module is added', () => {
    const before = codeFingerprint(root);
    writeFileSync(join(root, 'emit', 'a.js'), 'export const a = 2;\n');
    const rewritten = codeFingerprint(root);
    expect(rewritten).not.toBe(before);
    writeFileSync(join(root, 'b.js'), '');
    expect(codeFingerprint(root)).not.toBe(rewritten);
  });

  it('ignores declarations and source maps, which change nothing the generator does', () => {
    const before = codeFingerprint(root);
    writeFileSync(join(root, 'emit', 'a.d.ts'), 'export declare const a: 1;\n');
    writeFileSync(join(root, 'emit', 'a.js.map'), '{"version":3}\n');
    expect(codeFingerprint(root)).toBe(before);
  });
});
