/**
 * `mcp-gen client <manifest>` run again with nothing changed: answered from the folder's no-op
 * stamp (pipeline/noop-stamp.ts), as `server` is (noop-server.ts), before the generator loads. The
 * advice about the project around the folder (client-project.ts) is worked out again, as a full run
 * does: it depends on files outside the output. A client of a live server or of a snapshot,
 * `--package` (its version follows the package.json it finds), `--spec` and `--save-snapshot` always
 * run in full.
 */
import type { ClientJob } from '../pipeline/client.js';
import { clientProjectAdvice } from '../pipeline/client-project.js';
import type { StampRequest } from '../pipeline/noop-record.js';
import { stampKey, type StampedJob } from '../pipeline/noop-stamp.js';
import { answerFromStamp, holdingStamp } from './noop-answer.js';
import type { Console } from './output.js';

/** Runs that can leave a stamp: one that writes, from a manifest, with the shipped spec and no package. */
function stampableManifest(job: ClientJob, check: boolean): string | undefined {
  if (check || !('manifest' in job.source)) return undefined;
  if (job.package !== undefined || job.spec !== undefined || job.specDir !== undefined || job.saveSnapshot !== undefined || job.offline === true) return undefined;
  return job.source.manifest;
}

/** The stamp's view of a client run: every field of the job that shapes the output. */
function stampedJob(manifest: string, job: ClientJob): StampedJob {
  return {
    manifest,
    out: job.out,
    banner: { command: job.banner.command, version: job.banner.version !== false },
    options: {
      command: 'client',
      allowOutsideRefs: job.allowOutsideRefs === true,
      auth: job.auth === true,
      browser: job.browser === true,
      importExtension: job.importExtension,
      view: job.view,
    },
  };
}

/**
 * The exit code when the stamp shows there is nothing to do, else what the full run needs to leave
 * a stamp (undefined for a run that leaves none). `check`: the run compares and never writes.
 */
export async function noopClient(job: ClientJob, check: boolean, io: Console): Promise<{ code: number } | { request?: StampRequest }> {
  const manifest = stampableManifest(job, check);
  if (manifest === undefined) return {};
  const startedAtNs = BigInt(Date.now()) * 1_000_000n;
  const stamped = stampedJob(manifest, job);
  const key = stampKey(stamped);
  const request: StampRequest = { key, job: stamped, startedAtNs };
  const stamp = holdingStamp(job.out, key);
  if (stamp === undefined) return { request };
  return { code: answerFromStamp(job.out, stamp, io, await clientProjectAdvice(job)) };
}
