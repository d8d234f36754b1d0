/**
 * Problems found in user input. Every loader collects all of them before failing, so the user
 * sees every mistake at once; the CLI prints them and exits with code 2.
 */
export interface Diagnostic {
  /** The input as the user named it (path relative to the working directory, or a URL). */
  file: string;
  /** 1-based; 0 when the input has no meaningful position (missing file, network error). */
  line: number;
  column: number;
  /** RFC 6901 JSON pointer into the document, '' for the whole document. */
  pointer: string;
  message: string;
  hint?: string;
}

/** Thrown by any phase when user input is at fault. Anything else that escapes is a bug in mcp-gen. */
export class InputError extends Error {
  readonly diagnostics: readonly Diagnostic[];

  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'InputError';
    this.diagnostics = diagnostics;
  }
}

/**
 * A server (or the network) that could not be reached, or failed while it was read: the user's
 * input names it, but nothing in the input is wrong, so the CLI exits 3 instead of 2.
 */
export class UnreachableError extends InputError {
  constructor(diagnostics: readonly Diagnostic[]) {
    super(diagnostics);
    this.name = 'UnreachableError';
  }
}

/** `file:line:col: message (at /pointer) — hint`, one line per problem. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
  const pointer = d.pointer === '' ? '' : ` (at ${d.pointer})`;
  const hint = d.hint ? ` — ${d.hint}` : '';
  return `${where}: ${d.message}${pointer}${hint}`;
}

/** A problem with no line and column: about a whole input, or a place named by pointer alone. */
export function unplacedDiagnostic(file: string, pointer: string, message: string, hint?: string): Diagnostic {
  return { file, line: 0, column: 0, pointer, message, ...(hint ? { hint } : {}) };
}

/** Shorthand for a problem that concerns a whole input (missing file, bad JSON with no position). */
export function inputProblem(file: string, message: string, hint?: string): InputError {
  return new InputError([unplacedDiagnostic(file, '', message, hint)]);
}
