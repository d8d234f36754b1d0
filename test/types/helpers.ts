import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { defaultSpecDir } from '../../src/pipeline/paths.js';
import { emitProtocolTypes, type DocsMode } from '../../src/emit/types/index.js';
import { resolveSpec, type KnownRevision } from '../../src/load/spec.js';
import { buildProtocolModel, type ProtocolModel } from '../../src/model/protocol.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The official schemas and examples, as committed in the repository (or `MCP_SPEC_DIR`). */
export const specDir = defaultSpecDir();

const models = new Map<string, Promise<ProtocolModel>>();

export function loadModel(revision: KnownRevision): Promise<ProtocolModel> {
  let model = models.get(revision);
  if (!model) {
    model = resolveSpec(revision, { specDir }).then(buildProtocolModel);
    models.set(revision, model);
  }
  return model;
}

const emitted = new Map<string, Promise<string>>();

export function typesFor(revision: KnownRevision, docs: DocsMode = 'link'): Promise<string> {
  const key = `${revision}:${docs}`;
  let text = emitted.get(key);
  if (!text) {
    text = loadModel(revision).then((model) => emitProtocolTypes(model, { docs }));
    emitted.set(key, text);
  }
  return text;
}

/** The strictest settings we promise generated code compiles under (tsconfig.base.json and more). */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  noUnusedLocals: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  types: [],
  // Only for the .d.ts of vitest when a fixture imports it; generated files are never .d.ts.
  skipLibCheck: true,
  noEmit: true,
};

/**
 * A fresh temp folder marked as an ES module package, with the given files written into it, and
 * the repository's node_modules linked in so fixtures can import vitest's `expectTypeOf`.
 */
export function writeTempProject(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gen-types-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

export interface CompiledDiagnostic {
  file: string;
  line: number;
  code: number;
  message: string;
}

/** Type-checks the named files of `dir` as one program; returns every diagnostic with its file and line. */
export function typeCheck(dir: string, names: readonly string[]): CompiledDiagnostic[] {
  const program = ts.createProgram(
    names.map((n) => join(dir, n)),
    STRICT_OPTIONS,
  );
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const position = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return {
      file: d.file ? d.file.fileName.slice(dir.length + 1) : '',
      line: position ? position.line + 1 : 0,
      code: d.code,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  });
}

export function describeDiagnostics(diagnostics: readonly CompiledDiagnostic[]): string {
  return diagnostics.map((d) => `${d.file}:${d.line}: TS${d.code} ${d.message}`).join('\n');
}
