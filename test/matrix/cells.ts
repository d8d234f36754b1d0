/**
 * The matrix's axes, which combinations cannot run and why, and the table of what each cell did
 * (printed by the suite and written to test/matrix/results/MATRIX.md, which git ignores).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALL_ROWS, callRowNotApplicable } from './rows-calls.js';
import { CLIENT_ROWS, clientRowNotApplicable } from './rows-client.js';
import { LIST_ROWS, listRowNotApplicable } from './rows-lists.js';
import { INPUT_ROWS, inputRowNotApplicable } from './rows-input.js';
import { TASK_ROWS, taskRowNotApplicable } from './rows-tasks.js';
import { AUTH_ROWS, authRowNotApplicable } from './rows-auth.js';

export type ClientKind = 'ours' | 'sdk1' | 'sdk2';
export type ServerKind = 'ours' | 'sdk1' | 'sdk2';
export type TransportKind = 'stdio' | 'http';
export type Era = '2025-11-25' | '2026-07-28';

export const CLIENTS: readonly ClientKind[] = ['ours', 'sdk1', 'sdk2'];
export const SERVERS: readonly ServerKind[] = ['ours', 'sdk1', 'sdk2'];
export const TRANSPORTS: readonly TransportKind[] = ['stdio', 'http'];
export const ERAS: readonly Era[] = ['2025-11-25', '2026-07-28'];

export const CLIENT_NAMES: Record<ClientKind, string> = {
  ours: 'generated client',
  sdk1: 'SDK 1.x client',
  sdk2: 'SDK 2.x client',
};
export const SERVER_NAMES: Record<ServerKind, string> = {
  ours: 'generated server',
  sdk1: 'SDK 1.x server',
  sdk2: 'SDK 2.x server',
};

export const ROWS = [
  { id: '1a', title: 'tool named outside ASCII' },
  { id: '1b', title: 'prompt named outside ASCII' },
  { id: '2', title: 'x-mcp-header arguments, top-level and nested' },
  { id: '3', title: 'progress notifications' },
  { id: '4', title: 'cancellation reaches the handler' },
  { id: '5', title: 'log messages filtered by level' },
  { id: '6', title: 'elicitation round, then sampling round' },
  { id: '7', title: 'tools list-changed notification' },
  { id: '8', title: 'output breaking the outputSchema is rejected' },
  { id: '9', title: "the server's identity (serverInfo) as the client reports it" },
  ...CLIENT_ROWS,
  ...LIST_ROWS,
  ...INPUT_ROWS,
  ...TASK_ROWS,
  ...AUTH_ROWS,
  ...CALL_ROWS,
] as const;
export type RowId = (typeof ROWS)[number]['id'];

export interface Combination {
  client: ClientKind;
  server: ServerKind;
  transport: TransportKind;
  era: Era;
}

/** Why a whole combination cannot run, or undefined when it runs. */
export function notApplicable(c: Combination): string | undefined {
  if (c.era === '2026-07-28' && c.client === 'sdk1') return 'the SDK 1.x client speaks the stateful revisions only';
  if (c.era === '2026-07-28' && c.server === 'sdk1') return 'the SDK 1.x server speaks the stateful revisions only';
  return undefined;
}

/**
 * The SDK 2.x HTTP entry (`createMcpHandler`) serves 2025-11-25 the "stateless" way: a fresh
 * server for every POST, no session. What needs state between requests cannot happen there.
 */
const SDK2_STATELESS_2025: Partial<Record<RowId, string>> = {
  '4': 'the SDK 2.x HTTP entry serves 2025-11-25 with a fresh server per request: a notifications/cancelled POST cannot reach the call it names',
  '5': 'the SDK 2.x HTTP entry serves 2025-11-25 with a fresh server per request: the level set by logging/setLevel is gone with that request',
  '6': 'the SDK 2.x HTTP entry serves 2025-11-25 with a fresh server per request, which cannot send server-to-client requests (it answers the call with a tool error saying so)',
  '7': 'the SDK 2.x HTTP entry serves 2025-11-25 with a fresh server per request and no standalone stream (GET is 405) to carry list changes',
};

/** Why one row cannot run in a combination that otherwise runs, or undefined when it runs. */
export function rowNotApplicable(c: Combination, row: RowId): string | undefined {
  const clientRow = clientRowNotApplicable(c, row);
  if (clientRow !== undefined) return clientRow;
  const lists = listRowNotApplicable(c, row);
  if (lists !== undefined) return lists;
  const tasks = taskRowNotApplicable(c, row);
  if (tasks !== undefined) return tasks;
  const auth = authRowNotApplicable(c, row);
  if (auth !== undefined) return auth;
  const calls = callRowNotApplicable(c, row);
  if (calls !== undefined) return calls;
  if (INPUT_ROWS.some((r) => r.id === row)) return inputRowNotApplicable(c);
  if (c.server === 'sdk2' && c.transport === 'http' && c.era === '2025-11-25') return SDK2_STATELESS_2025[row];
  return undefined;
}

export function combinations(): Combination[] {
  const all: Combination[] = [];
  for (const era of ERAS) for (const transport of TRANSPORTS) for (const server of SERVERS) for (const client of CLIENTS) all.push({ client, server, transport, era });
  return all;
}

export function label(c: Combination): string {
  return `${CLIENT_NAMES[c.client]} → ${SERVER_NAMES[c.server]}, ${c.transport}, ${c.era}`;
}

type Outcome = { status: 'ran'; passed: boolean; detail?: string } | { status: 'n/a'; reason: string };

const outcomes = new Map<string, Outcome>();
const key = (c: Combination, row: RowId): string => `${c.client}|${c.server}|${c.transport}|${c.era}|${row}`;

export function recordNotApplicable(c: Combination, row: RowId, reason: string): void {
  outcomes.set(key(c, row), { status: 'n/a', reason });
}

/** Runs one cell's body, recording whether it passed (and the first line of its failure). */
export async function runCell(c: Combination, row: RowId, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    outcomes.set(key(c, row), { status: 'ran', passed: true });
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    outcomes.set(key(c, row), { status: 'ran', passed: false, detail: text.split('\n').find((line) => line.trim() !== '') ?? text });
    throw error;
  }
}

/** The table as Markdown: one line per combination, one column per row; then n/a reasons and failures. */
export function renderTable(): string {
  const lines = [
    '# Interop matrix',
    '',
    `| client | server | transport | era | ${ROWS.map((r) => `${r.id}`).join(' | ')} |`,
    `| --- | --- | --- | --- | ${ROWS.map(() => '---').join(' | ')} |`,
  ];
  const reasons = new Map<string, string[]>();
  const failures: string[] = [];
  for (const c of combinations()) {
    const cells = ROWS.map((r) => {
      const outcome = outcomes.get(key(c, r.id));
      if (outcome === undefined) return 'not run';
      if (outcome.status === 'n/a') {
        const where = reasons.get(outcome.reason) ?? [];
        where.push(`${label(c)} row ${r.id}`);
        reasons.set(outcome.reason, where);
        return 'n/a';
      }
      if (!outcome.passed) failures.push(`- ${label(c)}, row ${r.id} (${r.title}): ${outcome.detail ?? ''}`);
      return outcome.passed ? 'pass' : '**FAIL**';
    });
    lines.push(`| ${CLIENT_NAMES[c.client]} | ${SERVER_NAMES[c.server]} | ${c.transport} | ${c.era} | ${cells.join(' | ')} |`);
  }
  lines.push('', 'Rows: ' + ROWS.map((r) => `${r.id} ${r.title}`).join('; ') + '.', '', '## n/a', '');
  for (const [reason, where] of reasons) lines.push(`- ${reason} (${where.length} cells)`);
  lines.push('', '## Failures', '', ...(failures.length === 0 ? ['none'] : failures), '');
  return lines.join('\n');
}

export function writeTable(): string {
  const text = renderTable();
  const file = join(dirname(fileURLToPath(import.meta.url)), 'results', 'MATRIX.md');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
