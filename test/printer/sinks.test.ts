/**
 * Issue 6, finding 2: descriptions, titles and names reached comments of generated files and of the
 * user-owned stubs with raw NUL and other control characters, bidi overrides and isolates, zero-width
 * characters ("Trojan Source"), and lines TypeScript reads as directives; diagnostics printed input
 * with raw control characters. One sink for comments (commentText, under jsdoc and under every
 * description json-schema-to-typescript prints), one for the terminal (terminalText, under main()).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { emitProtocolTypes } from '../../src/emit/types/index.js';
import type { LoadedSpec } from '../../src/load/spec.js';
import { buildProtocolModel } from '../../src/model/protocol.js';
import { commentText, jsdoc, terminalText } from '../../src/printer/escape.js';
import { loadModel, plan, tempDir, typeCheck, write } from '../server/support.js';

/** Every character class the sinks must neutralize, one sample each (and the full ranges below). */
const DANGEROUS = [
  ...Array.from({ length: 0x20 }, (_, c) => c).filter((c) => c !== 0x09 && c !== 0x0a),
  0x7f, ...Array.from({ length: 0x20 }, (_, c) => 0x80 + c),
  0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c,
  0x200b, 0x200c, 0x200d, 0x2060, 0xfeff,
  0x2028, 0x2029,
].map((c) => String.fromCharCode(c));
const RAW = new RegExp(`[${DANGEROUS.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`, 'u');

const DIRECTIVES = ['@ts-ignore', '@ts-nocheck', '@ts-expect-error', '@ts-check', '@jsx h', '@jsxImportSource evil', '/// <reference path="x" />', 'eslint-disable'];
const HOSTILE = [
  'intro */ export const pwn = 1; /*',
  `controls: ${DANGEROUS.join('|')}`,
  'if (isAdmin‮ ⁦) { // check⁩ ⁦',
  ...DIRECTIVES,
  ...DIRECTIVES.map((d) => ` * ${d}`),
  `tail\r\nafter CR LF\rafter CR`,
].join('\n');

/** What TypeScript treats as a directive in a comment line (its own patterns, loosened). */
const DIRECTIVE_LINE = /^(?:\s|\*|\/)*@(?:ts-|jsx)|@(?:ts-|jsx)|^\s*\*?\s*\/\/\/\s*</im;

/** Every comment of a TypeScript file, by the TypeScript scanner. */
function comments(code: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, code);
  const found: string[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.MultiLineCommentTrivia || token === ts.SyntaxKind.SingleLineCommentTrivia) found.push(scanner.getTokenText());
  }
  return found;
}

/**
 * The directives mcp-gen itself writes, each a whole comment of its own: the runtime's reference to
 * Node's types, and the validator modules' `@ts-nocheck` (ajv's code). Untrusted text only ever
 * reaches doc comments, so it can never make a comment that is exactly one of these.
 */
const OWN_DIRECTIVES = new Set(['/// <reference types="node" />', '// @ts-nocheck']);

function expectClean(where: string, code: string): void {
  for (const comment of comments(code)) {
    expect(RAW.test(comment), `${where}: raw control/bidi/zero-width character in ${JSON.stringify(comment)}`).toBe(false);
    if (OWN_DIRECTIVES.has(comment)) continue;
    expect(DIRECTIVE_LINE.test(comment), `${where}: directive in ${JSON.stringify(comment)}`).toBe(false);
  }
  // Nothing raw outside comments either (string literals escape it).
  expect(RAW.test(code), `${where}: raw character outside comments`).toBe(false);
}

describe('the comment sink', () => {
  it('neutralizes terminators, every control, bidi and zero-width character, and directives', () => {
    const text = commentText(HOSTILE);
    expect(text).not.toMatch(RAW);
    expect(text).not.toContain('*/');
    expect(text).toContain('\\u202E');
    expect(text).toContain('\\u0000');
    for (const line of text.split('\n')) expect(line, line).not.toMatch(DIRECTIVE_LINE);
    // Readable, and stable when applied twice.
    expect(text).toContain('ts-ignore');
    expect(commentText(text)).toBe(text);
  });

  it('jsdoc blocks parse as one comment with nothing after it', () => {
    const code = `${jsdoc(HOSTILE)}export const ok = 1;\n`;
    expect(comments(code)).toHaveLength(1);
    expectClean('jsdoc', code);
  });
});

describe('the terminal sink', () => {
  it('writes control, bidi and zero-width characters as visible escapes, keeping newlines and tabs', () => {
    expect(terminalText('a\u202Eb\u0000c\u001b[31md\te\nf')).toBe('a\\u202Eb\\u0000c\\u001B[31md\te\nf');
    expect(terminalText(DANGEROUS.join(''))).not.toMatch(RAW);
  });

  it('diagnostics quoting hostile input print no raw characters (exit 2)', async () => {
    const dir = tempDir('sinks-cli');
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ server: { name: 's', version: '1' }, tools: [{ name: `bad\u202Ename\u0000\u001b[2J`, inputSchema: { type: 'object' } }] }));
    const lines: string[] = [];
    const code = await main(['server', manifest, '-o', join(dir, 'out')], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(code).toBe(2);
    const output = lines.join('\n');
    expect(output).toContain('bad\\u202Ename\\u0000\\u001B[2J');
    expect(output).not.toMatch(RAW);
  });
});

describe('every comment of generated and skeleton files', () => {
  it('server: descriptions, titles and names in every file are clean, and the output compiles strictly', async () => {
    const dir = tempDir('sinks-server');
    const manifestPath = join(dir, 'manifest.json');
    const hostile = HOSTILE;
    writeFileSync(
      manifestPath,
      JSON.stringify({
        server: { name: 'sinks', version: '1.0.0', title: hostile, instructions: hostile },
        tools: [
          {
            name: 'tool',
            title: hostile,
            description: hostile,
            inputSchema: {
              type: 'object',
              description: hostile,
              properties: { a: { type: 'string', description: hostile, title: hostile }, b: { description: hostile } },
              patternProperties: { [`^x${'\u202E'}`]: { type: 'string', description: hostile } },
              $defs: { D: { type: 'number', description: hostile } },
            },
            outputSchema: { type: 'object', properties: { r: { $ref: '#/$defs/D' } }, $defs: { D: { type: 'number', description: hostile } } },
          },
        ],
        resources: [{ uri: 'file:///x', name: 'x', description: hostile, title: hostile }],
        resourceTemplates: [{ uriTemplate: 'file:///t/{id}', name: 't', description: hostile }],
        prompts: [{ name: 'p', description: hostile, arguments: [{ name: 'arg', description: hostile }] }],
      }),
    );
    const model = await loadModel(manifestPath);
    const serverPlan = await plan(model);
    for (const file of serverPlan.files) if (/\.(ts|js)$/.test(file.path)) expectClean(file.path, file.content);
    const out = join(dir, 'out');
    await write(out, serverPlan, manifestPath);
    expect(typeCheck([out])).toEqual([]);
  }, 120_000);

  it('protocol types with --docs full: the schema descriptions are clean', async () => {
    const defs = {
      Thing: { type: 'object', description: HOSTILE, properties: { x: { type: 'string', description: HOSTILE }, y: { description: HOSTILE } } },
      PingRequest: { type: 'object', description: HOSTILE, properties: { method: { const: 'ping' } }, required: ['method'] },
      EmptyResult: { type: 'object' },
      Result: { type: 'object' },
      ClientRequest: { anyOf: [{ $ref: '#/$defs/PingRequest' }] },
    } as unknown as LoadedSpec['defs'];
    const spec: LoadedSpec = { revision: '2099-01-01', dialect: '2020-12', source: 'hostile.json', warnings: [], defs };
    const code = await emitProtocolTypes(buildProtocolModel(spec), { docs: 'full' });
    expect(comments(code).some((c) => c.includes('\\u202E'))).toBe(true);
    expectClean('types.ts', code);
  });
});
