/**
 * The answer of a run with nothing to do (pipeline/noop-stamp.ts), shared by `server`
 * (noop-server.ts) and `client` (noop-client.ts): when the folder's stamp holds under the run's
 * key, the report a full run would print (every generated file unchanged, every user file kept),
 * with the warnings and notes it printed. Only the stamp's modules and the printing load here.
 */
import { readStamp, stampHolds, type NoopStamp } from '../pipeline/noop-stamp.js';
import { displayPath } from '../pipeline/paths.js';
import { printReport, type Console } from './output.js';

/** The folder's stamp when it holds under `key`, else undefined (a full run is needed). */
export function holdingStamp(out: string, key: string): NoopStamp | undefined {
  const found = readStamp(out);
  return found !== undefined && stampHolds(found.stamp, found.savedAtNs, key, out) ? found.stamp : undefined;
}

/** Prints what the full run printed: its messages, `lines` (what a full run works out afresh each time), the report, its notes. */
export function answerFromStamp(out: string, stamp: NoopStamp, io: Console, lines: readonly string[] = []): number {
  const warnings = (stamp as { warnings?: unknown }).warnings;
  if (Array.isArray(warnings)) io.result?.({ warnings });
  for (const line of stamp.messages) io.err(line);
  if (process.env['MCP_GEN_CACHE_STATS'] === '1') io.err('unit cache: nothing to do (the no-op stamp holds), nothing read or computed');
  for (const line of lines) io.err(line);
  const report = { created: [], updated: [], unchanged: [] as string[], merged: [], kept: [] as string[], deleted: [], stale: [], missing: [], extra: [] };
  for (const [path, kind] of stamp.files) {
    if (kind === 'generated') report.unchanged.push(path);
    else if (kind !== 'ledger') report.kept.push(path);
  }
  const code = printReport(io, displayPath(out), report, false);
  for (const note of stamp.notes) io.err(`note: ${note}`);
  return code;
}
