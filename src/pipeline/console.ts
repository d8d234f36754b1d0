import { formatDiagnostic, type Diagnostic } from '../load/diagnostics.js';

/**
 * Everything a command prints goes through here, the pipeline's warnings, notes and progress too:
 * results to stdout, problems to stderr. Text quoted from input can hold control and bidi
 * characters, so the CLI's main() wraps it in terminalConsole.
 */
export interface Console {
  out(line: string): void;
  err(line: string): void;
  /** What the command did, for `--json` (main prints it); absent where nobody asks. */
  result?(data: Record<string, unknown>): void;
  /** Starts a spinner for long work on a terminal; returns the function that clears it. */
  progress?(label: string): () => void;
}

/** Runs `work` with a spinner labelled `label` on a terminal (nothing otherwise). */
export async function withProgress<T>(io: Console, label: string, work: () => Promise<T>): Promise<T> {
  const stop = io.progress?.(label) ?? (() => {});
  try {
    return await work();
  } finally {
    stop();
  }
}

/** The warnings a run printed so far, by console: `--json` lists them all (`warnings`). */
const printed = new WeakMap<Console, Diagnostic[]>();

/** Each warning on stderr (`warning: file:line:col: message (at /pointer) — hint`), and in the `--json` document. */
export function printWarnings(io: Console, warnings: readonly Diagnostic[]): void {
  for (const warning of warnings) io.err(`warning: ${formatDiagnostic(warning)}`);
  if (warnings.length === 0) return;
  let list = printed.get(io);
  if (list === undefined) {
    list = [];
    printed.set(io, list);
    io.result?.({ warnings: list });
  }
  list.push(...warnings);
}

