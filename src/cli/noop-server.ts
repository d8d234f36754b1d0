/**
 * `mcp-gen server` run again with nothing changed: answered from the folder's no-op stamp
 * (pipeline/noop-stamp.ts) before anything heavy loads: no manifest parsing, no compilers, no
 * workers. Only this module and the few it imports load on that path. Any doubt is a full run.
 */
import { resolve } from 'node:path';
import type { StampRequest } from '../pipeline/noop-record.js';
import { readStamp, stampHolds, stampKey, type StampedJob } from '../pipeline/noop-stamp.js';
import { displayPath } from '../pipeline/paths.js';
import { printReport, type Console } from './output.js';
import type { ServerOptions } from './server-command.js';

/** The banner `runServer` gives a manifest (relative to the working directory). */
export function serverBanner(manifest: string, versionBanner: boolean): { command: string; version: boolean } {
  return { command: `mcp-gen server ${displayPath(resolve(manifest))}`, version: versionBanner };
}

/** Runs that can leave a stamp: one that writes, from a manifest, with the shipped spec (--spec is compiled every run). */
function stampable(options: ServerOptions): boolean {
  return options.check !== true && options.watch !== true && options.debugIr !== true && options.spec === undefined && options.specDir === undefined;
}

/** The stamp's view of a server run: every flag that shapes the output (not --force, --no-shared-cache or the output mode). */
function stampedJob(manifest: string, options: ServerOptions): StampedJob {
  return {
    manifest,
    out: options.out,
    banner: serverBanner(manifest, options.versionBanner),
    options: {
      allowOutsideRefs: options.allowOutsideRefs === true,
      importExtension: options.importExtension,
      otel: options.otel === true,
      target: options.target,
      mcpb: options.mcpb === true,
      registryName: options.registryName,
      registryRemote: options.registryRemote,
      dockerfile: options.dockerfile === true,
    },
  };
}

/**
 * The exit code when the stamp shows there is nothing to do (the report, warnings and notes of a full
 * run printed), else what the full run needs to leave a stamp (undefined for a run that leaves none).
 */
export function noopServer(manifest: string, options: ServerOptions, io: Console): { code: number } | { request?: StampRequest } {
  if (!stampable(options)) return {};
  const startedAtNs = BigInt(Date.now()) * 1_000_000n;
  const job = stampedJob(manifest, options);
  const key = stampKey(job);
  const request: StampRequest = { key, job, startedAtNs };
  if (options.force === true) return { request };
  const found = readStamp(options.out);
  if (found === undefined || !stampHolds(found.stamp, found.savedAtNs, key, options.out)) return { request };
  const { stamp } = found;
  const warnings = (stamp as { warnings?: unknown }).warnings;
  if (Array.isArray(warnings)) io.result?.({ warnings });
  for (const line of stamp.messages) io.err(line);
  const report = { created: [], updated: [], unchanged: [] as string[], merged: [], kept: [] as string[], deleted: [], stale: [], missing: [], extra: [] };
  for (const [path, kind] of stamp.files) {
    if (kind === 'generated') report.unchanged.push(path);
    else if (kind !== 'ledger') report.kept.push(path);
  }
  const code = printReport(io, displayPath(options.out), report, false);
  for (const note of stamp.notes) io.err(`note: ${note}`);
  if (process.env['MCP_GEN_CACHE_STATS'] === '1') io.err('unit cache: nothing to do (the no-op stamp holds), nothing read or computed');
  return { code };
}
