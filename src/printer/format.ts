/**
 * prettier with mcp-gen's fixed options (never the user's config), so the same inputs give the same
 * bytes on every machine. prettier is loaded on the first call: a run whose every file comes from
 * the unit cache never loads it.
 */

import { PRETTIER_OPTIONS } from './prettier-options.js';
import { memberLines } from './prettier-layout.js';
import { runInWorker, workerEntry, type WorkerEntry } from './worker-thread.js';

export { PRETTIER_OPTIONS };

export type FormatParser = 'typescript' | 'babel-ts' | 'babel' | 'json' | 'markdown';

/**
 * The parser for the code mcp-gen generates itself: prettier prints the same bytes from Babel's
 * TypeScript parser as from TypeScript's own for it, and parses it faster.
 */
const GENERATED_TS: FormatParser = 'babel-ts';

let prettier: Promise<typeof import('prettier')> | undefined;

/**
 * `source` formatted. `filepath` only tells prettier's TypeScript parser the code is not JSX;
 * without it, it guesses with a regular expression that takes quadratic time on large files.
 */
export async function formatSource(source: string, parser: FormatParser, filepath: string): Promise<string> {
  prettier ??= import('prettier');
  const { format } = await prettier;
  return format(source, { ...PRETTIER_OPTIONS, parser, filepath });
}

/** Caches an asynchronous pure step by kind and input (the output folder's unit cache). */
export type UnitMemo = (kind: string, input: string, compute: () => Promise<string>) => Promise<string>;

/** TypeScript code formatted, through the memo when there is one (keyed by the code itself). */
export function formatTypeScript(code: string, memo: UnitMemo | undefined): Promise<string> {
  const run = (): Promise<string> => formatSource(code, GENERATED_TS, 'unit.ts');
  return memo ? memo('prettier-unit', code, run) : run();
}

/**
 * Top-level code (whole statements and declarations) formatted as prettier formats it within a file,
 * through the memo when there is one. Every unit asked for in the same turn of the event loop goes
 * to prettier in one call, one per line-comment-separated slot, and is cut out again: prettier
 * formats top-level statements one by one, so a unit's bytes do not depend on its neighbours (a
 * warm run formats a changed unit alone and gets what a cold run's batch gave), while a cold run
 * pays prettier's per-call cost once instead of once per unit.
 */
export function formatUnit(code: string, memo: UnitMemo | undefined): Promise<string> {
  const run = (): Promise<string> => batched(code);
  return memo ? memo('prettier-unit', code, run) : run();
}

const UNIT_BREAK = '// @mcp-gen-unit-break';

interface Pending {
  code: string;
  resolve: (formatted: string) => void;
  reject: (error: unknown) => void;
}

let pending: Pending[] = [];

function batched(code: string): Promise<string> {
  return new Promise((resolve, reject) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push({ code, resolve, reject });
  });
}

/**
 * Batches of this many units and more are formatted on a worker thread (format-worker.ts), beside
 * the rest of the plan, since prettier is a large share of a big client's run. Fewer are not worth
 * the thread's start, which loads prettier again.
 */
export const FORMAT_WORKER_THRESHOLD = 100;

async function flush(): Promise<void> {
  const batch = pending;
  pending = [];
  try {
    const source = batch.map((p) => p.code.trim()).join(`\n${UNIT_BREAK}\n`);
    const worker = batch.length >= FORMAT_WORKER_THRESHOLD ? workerEntry(import.meta.url, 'format-worker') : undefined;
    const formatted = worker ? await formatInWorker(worker, source) : await formatUnitsHere({ source });
    const pieces = formatted.split(new RegExp(`^${UNIT_BREAK}\n`, 'm'));
    if (pieces.length !== batch.length) throw new Error(`formatting ${batch.length} units gave ${pieces.length}`);
    batch.forEach((p, i) => p.resolve(`${(pieces[i] as string).trim()}\n`));
  } catch (error) {
    for (const p of batch) p.reject(error);
  }
}

/** What format-worker.ts is sent and answers. */
export interface FormatRequest {
  source: string;
}
export type FormatReply = { formatted: string } | { error: string };

/** Units formatted by prettier on the thread: the same call, so the same bytes. */
export async function formatUnitsHere(request: FormatRequest): Promise<string> {
  return formatSource(request.source, GENERATED_TS, 'units.ts');
}

async function formatInWorker(entry: WorkerEntry, source: string): Promise<string> {
  const reply = await runInWorker<FormatRequest, FormatReply>(entry, { source }, 'formatUnit');
  if ('error' in reply) throw new Error(reply.error);
  return reply.formatted;
}

/**
 * A line that stands for a run of units in a file's skeleton. A line comment survives prettier on
 * its own line at its own indentation, in any list or body, and no unit can produce one at the
 * start of a line (their comments are JSDoc, their strings have no raw line breaks).
 */
export function unitMarker(name: string): string {
  return `// @mcp-gen-units ${name}`;
}

/** Units already formatted at `indent` spaces, to put where their marker is, `separator` between them. */
export interface UnitRun {
  units: readonly string[];
  indent: number;
  separator: string;
}

/**
 * The formatted skeleton with each marker line replaced by its units, re-indented to the marker's
 * column. Big generated files are assembled this way: each unit formatted (and cached) alone, the
 * skeleton once, and never the whole file.
 */
export function spliceUnits(skeleton: string, runs: ReadonlyMap<string, UnitRun>): string {
  return skeleton.replace(/^([ \t]*)\/\/ @mcp-gen-units (\S+)\n(\n?)/gm, (line, indentation: string, name: string, blank: string) => {
    const run = runs.get(name);
    if (run === undefined) return line;
    // No units: the marker goes with the blank line after it, so no double blank line is left.
    if (run.units.length === 0) return '';
    const shift = indentation.length - run.indent;
    const body = run.units.map((unit) => (unit.endsWith('\n') ? unit : `${unit}\n`)).join(run.separator);
    return (shift === 0 ? body : reindent(body, shift)) + blank;
  });
}

/** Every non-empty line moved right (or left) by `shift` spaces. */
function reindent(text: string, shift: number): string {
  const pad = ' '.repeat(Math.max(shift, 0));
  return text
    .split('\n')
    .map((line) => (line === '' ? line : shift > 0 ? pad + line : line.slice(-shift)))
    .join('\n');
}

/**
 * The lines of a formatted wrapper between its first line and the next line that starts at column
 * 0: the members of `interface W {…}` or the elements of `const w = [ … ]`, at their indentation.
 */
export function wrappedLines(formatted: string, header: string): string {
  const start = formatted.indexOf(`${header}\n`);
  if (start < 0) throw new Error(`formatted unit lacks ${JSON.stringify(header)}`);
  const from = start + header.length + 1;
  const end = formatted.slice(from).search(/^\S/m);
  return end < 0 ? formatted.slice(from) : formatted.slice(from, from + end);
}

/** Where a member sits: in an interface or type literal, an array literal, or an object literal. */
export type MemberKind = 'interface' | 'array' | 'object';

/** One tool's members of one container, unformatted, at two spaces ('' where it has none). */
export interface MemberPart {
  name: string;
  kind: MemberKind;
  code: string;
  /**
   * The same members already in prettier's layout, when the caller can print them directly; when
   * every part of a unit has it, the unit skips prettier (and the memo).
   */
  laidOut?: string | undefined;
}

/**
 * A tool's members of several containers, formatted together as one unit (wrapped in a container
 * of the same kind each, so prettier lays them out as members) and cut out again, at two spaces.
 * The wrapped code is the cache key: it holds every input of the bytes.
 */
export async function formatMembers(parts: readonly MemberPart[], memo: UnitMemo | undefined): Promise<Map<string, string>> {
  const flat = flatMembers(parts);
  if (flat !== undefined) return flat;
  // Parts laid out already keep their layout; only the others go to prettier.
  const present = parts.filter((p) => p.code !== '' && p.laidOut === undefined);
  // Wrappers are named by position: part names need not be identifiers.
  const header = (p: MemberPart): string => {
    const name = `Unit${parts.indexOf(p)}`;
    return p.kind === 'interface' ? `interface ${name} {` : `const ${name} = ${p.kind === 'array' ? '[' : '{'}`;
  };
  // An array keeps one element a line only when something forces it to break: a comment does.
  const wrap = (p: MemberPart): string =>
    p.kind === 'interface' ? `${header(p)}\n${p.code}}\n` : p.kind === 'array' ? `${header(p)}\n  // elements\n${p.code}];\n` : `${header(p)}\n${p.code}};\n`;
  const formatted = present.length === 0 ? '' : await formatUnit(present.map(wrap).join(''), memo);
  const members = new Map<string, string>();
  for (const part of parts) {
    if (part.code === '' || part.laidOut !== undefined) {
      members.set(part.name, part.laidOut ?? '');
      continue;
    }
    const lines = wrappedLines(formatted, header(part));
    members.set(part.name, part.kind === 'array' ? lines.slice(lines.indexOf('\n') + 1) : lines);
  }
  return members;
}

/**
 * Members the caller laid out already (`laidOut`), and members that are each one plain interface
 * line (`  name: Type;`, spaced as prettier spaces it), which print as they are, string quotes
 * aside, when prettier would keep them on their line, or broken as prettier breaks them for the
 * shapes memberLines knows. Undefined when any other part is another kind,
 * several lines, a comment, non-ASCII or too wide.
 */
function flatMembers(parts: readonly MemberPart[]): Map<string, string> | undefined {
  const members = new Map<string, string>();
  for (const part of parts) {
    if (part.code === '') {
      members.set(part.name, '');
      continue;
    }
    if (part.laidOut !== undefined) {
      members.set(part.name, part.laidOut);
      continue;
    }
    if (part.kind !== 'interface' || !/^  [^\n]*;\n$/.test(part.code) || part.code.includes('/*') || part.code.includes('//')) return undefined;
    const line = memberLines(part.code.slice(0, -1));
    if (line === undefined) return undefined;
    members.set(part.name, `${line}\n`);
  }
  return members;
}
