/**
 * Helpers of the diff tests: write two sides into a temp folder and run `mcp-gen diff` in process
 * through main(argv, io), as a user would.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import type { Console } from '../../src/cli/output.js';
import type { Finding } from '../../src/diff/finding.js';

export interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

export async function run(...argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Console = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, io);
  return { code, out, err };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'mcp-gen-diff-'));
}

/** Writes `value` as JSON under `name` in `dir` and returns the path. */
export function writeJson(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  return path;
}

type Json = { [key: string]: unknown };

/** A manifest with the given collections (JSON manifests are read by the same loader as YAML). */
export function manifest(parts: { tools?: Json[]; prompts?: Json[]; resources?: Json[]; resourceTemplates?: Json[]; $defs?: Json }): Json {
  return { server: { name: 'demo', version: '1.0.0' }, ...parts };
}

/** A snapshot as `mcp-gen client --save-snapshot` writes it. */
export function snapshot(parts: { tools?: Json[]; prompts?: Json[]; resources?: Json[]; resourceTemplates?: Json[] }): Json {
  return {
    mcpGenSnapshot: 1,
    protocolVersion: '2025-11-25',
    serverInfo: { name: 'demo', version: '1.0.0' },
    capabilities: { tools: {} },
    tools: parts.tools ?? [],
    prompts: parts.prompts ?? [],
    resources: parts.resources ?? [],
    resourceTemplates: parts.resourceTemplates ?? [],
  };
}

export interface JsonReport {
  old: { kind: string; source: string };
  new: { kind: string; source: string };
  findings: Finding[];
  summary: { breaking: number; compatible: number; docs: number; total: number };
}

/** `mcp-gen diff old new --json --fail-on none`, parsed; fails the test on any other exit code. */
export async function diffJson(oldPath: string, newPath: string): Promise<JsonReport> {
  const result = await run('diff', oldPath, newPath, '--json', '--fail-on', 'none');
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.err.join('\n')}`);
  return JSON.parse(result.out.join('\n')) as JsonReport;
}
