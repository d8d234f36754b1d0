/**
 * `mcp-gen server` run again with nothing changed: answered from the folder's no-op stamp
 * (pipeline/noop-stamp.ts) before anything heavy loads: no manifest parsing, no compilers, no
 * workers. Only this module and the few it imports load on that path. Any doubt is a full run.
 */
import { resolve } from 'node:path';
import type { StampRequest } from '../pipeline/noop-record.js';
import { stampKey, type StampedJob } from '../pipeline/noop-stamp.js';
import { displayPath } from '../pipeline/paths.js';
import { answerFromStamp, holdingStamp } from './noop-answer.js';
import type { Console } from './output.js';
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
  const stamp = holdingStamp(options.out, key);
  return stamp === undefined ? { request } : { code: answerFromStamp(options.out, stamp, io) };
}
