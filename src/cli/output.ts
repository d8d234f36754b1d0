import { formatDiagnostic, InputError } from '../load/diagnostics.js';
import type { Console } from '../pipeline/console.js';
import { terminalText } from '../printer/escape.js';
import type { WriteReport } from '../write/writer.js';

/** The console type, where the CLI's tests and modules have always found it. */
export type { Console } from '../pipeline/console.js';

export const processConsole: Console = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** `io` with every line passed through the terminal sink; main() prints through nothing else. */
export function terminalConsole(io: Console): Console {
  return { ...io, out: (line) => io.out(terminalText(line)), err: (line) => io.err(terminalText(line)) };
}

/**
 * Exit codes: 0 done, 1 `--check`/`check`/`diff` found something, 2 bad input (nothing written),
 * 3 a server or the network could not be reached or failed, 70 an internal error (a bug in mcp-gen).
 */
export const EXIT_OK = 0;
export const EXIT_DRIFT = 1;
export const EXIT_INPUT = 2;
export const EXIT_UNREACHABLE = 3;
export const EXIT_INTERNAL = 70;

export function printInputError(io: Console, error: InputError): void {
  const count = error.diagnostics.length;
  for (const d of error.diagnostics) io.err(`error: ${formatDiagnostic(d)}`);
  io.err(`${count} problem${count === 1 ? '' : 's'} found; nothing was written.`);
}

/** Prints what a write did (or, with --check, what it would do) and returns the exit code. */
export function printReport(io: Console, outDir: string, report: WriteReport, check: boolean): number {
  io.result?.({ out: outDir, check, files: reportFiles(report, check) });
  if (check) {
    const problems = [
      ...report.stale.map((p) => `stale: ${outDir}/${p}`),
      ...report.missing.map((p) => `missing: ${outDir}/${p}`),
      ...report.extra.map((p) => `extra: ${outDir}/${p}`),
    ];
    for (const line of problems) io.err(line);
    if (problems.length > 0) {
      io.err(`${outDir}: ${problems.length} file${problems.length === 1 ? '' : 's'} out of date; run the same command without --check.`);
      return EXIT_DRIFT;
    }
    io.out(`${outDir}: up to date.`);
    return EXIT_OK;
  }
  const parts = [
    ['created', report.created.length],
    ['updated', report.updated.length],
    ['unchanged', report.unchanged.length],
    ['merged into user files', report.merged.length],
    ['user files kept', report.kept.length],
    ['deleted', report.deleted.length],
  ] as const;
  io.out(`${outDir}: ${parts.filter(([, n]) => n > 0).map(([what, n]) => `${n} ${what}`).join(', ') || 'nothing to do'}.`);
  return EXIT_OK;
}

/** The report's file lists for `--json`: what was (or, with --check, would be) done to each file. */
function reportFiles(report: WriteReport, check: boolean): Record<string, string[]> {
  const lists: Record<string, readonly string[]> = check
    ? { stale: report.stale, missing: report.missing, extra: report.extra }
    : { created: report.created, updated: report.updated, unchanged: report.unchanged, merged: report.merged, kept: report.kept, deleted: report.deleted };
  return Object.fromEntries(Object.entries(lists).map(([key, paths]) => [key, [...paths]]));
}
