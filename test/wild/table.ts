/**
 * The wild suite's results, printed like the interop matrix's: one table of client × transport ×
 * revision × case, one of server × transport × step, written to test/wild/results/WILD.md
 * (git-ignored) and to the test output.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A case's outcome: passed, failed, or not applicable (with the reason). */
export type Outcome = { ok: true | false | 'n/a'; detail: string };

export interface Table {
  title: string;
  /** The columns that name a row (client, transport, revision), then the cases in order. */
  keys: string[];
  cases: string[];
  rows: { key: string[]; outcomes: Record<string, Outcome> }[];
}

export function newTable(title: string, keys: string[], cases: string[]): Table {
  return { title, keys, cases, rows: [] };
}

const mark = (outcome: Outcome | undefined): string => (outcome === undefined ? '–' : outcome.ok === true ? '✓' : outcome.ok === 'n/a' ? 'n/a' : '✗');

export function render(table: Table): string {
  const sorted = [...table.rows].sort((a, b) => a.key.join('\u0000').localeCompare(b.key.join('\u0000')));
  const lines = [`## ${table.title}`, '', `| ${[...table.keys, ...table.cases].join(' | ')} |`, `|${[...table.keys, ...table.cases].map(() => ' --- ').join('|')}|`];
  const notes: string[] = [];
  for (const row of sorted) {
    lines.push(`| ${[...row.key, ...table.cases.map((name) => mark(row.outcomes[name]))].join(' | ')} |`);
    // One note per reason: a row that is n/a throughout for one reason says so once.
    const reasons = new Map<string, string[]>();
    for (const name of table.cases) {
      const outcome = row.outcomes[name];
      if (outcome === undefined || outcome.ok === true) continue;
      const reason = `${mark(outcome)} ${outcome.detail.replace(/\s+/g, ' ')}`;
      reasons.set(reason, [...(reasons.get(reason) ?? []), name]);
    }
    for (const [reason, names] of reasons) {
      const which = names.length === table.cases.length ? 'every case' : names.join(', ');
      notes.push(`- ${row.key.join(' · ')} · ${which}: ${reason}`);
    }
  }
  if (notes.length > 0) lines.push('', ...notes);
  return lines.join('\n');
}

/** Writes the table as one section (WILD-<name>.md, one per test file), then WILD.md: every section. */
export function writeSection(name: string, table: Table): string {
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `WILD-${name}.md`), `${render(table)}\n`);
  const sections = readdirSync(dir).filter((file) => /^WILD-.+\.md$/.test(file)).sort();
  const page = ['# The wild suite (test/wild/)', '', ...sections.map((file) => readFileSync(join(dir, file), 'utf8'))].join('\n');
  const file = join(dir, 'WILD.md');
  writeFileSync(file, page);
  return file;
}
