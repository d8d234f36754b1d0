/**
 * What a server run that writes records for its no-op stamp (noop-stamp.ts) as it goes: the files
 * the manifest loader read, what it printed before its report (and, for `--json`, its warnings),
 * and, once the files are in place, the stamp itself.
 */
import type { PlannedFile } from '../write/planned-file.js';
import type { Console } from './console.js';
import { makeStamp, type NoopStamp, type StampedJob } from './noop-stamp.js';

/** Asked for by the CLI: the run's key and job, and when it began (an input changed after that leaves no stamp). */
export interface StampRequest {
  key: string;
  job: StampedJob;
  startedAtNs: bigint;
}

/** A stamp with what `--json` needs besides the lines: the warnings as the document lists them. */
export interface RecordedStamp extends NoopStamp {
  warnings?: unknown[];
}

export function recordForStamp(io: Console): {
  io: Console;
  readFiles: Set<string>;
  /** Inputs the run creates itself (read afterwards, as it left them). */
  createdInputs: Set<string>;
  stamp(request: StampRequest, files: readonly PlannedFile[], notes: string[]): RecordedStamp | undefined;
} {
  const messages: string[] = [];
  let warnings: unknown[] | undefined;
  const recording: Console = {
    ...io,
    err: (line) => {
      messages.push(line);
      io.err(line);
    },
  };
  if (io.result) {
    recording.result = (data) => {
      // printWarnings hands its list once and fills it later: kept by reference, copied at the end.
      if (Array.isArray(data['warnings'])) warnings = data['warnings'] as unknown[];
      io.result?.(data);
    };
  }
  const readFiles = new Set<string>();
  const createdInputs = new Set<string>();
  return {
    io: recording,
    readFiles,
    createdInputs,
    stamp(request, files, notes) {
      const written = files.map((file) => ({ path: file.path, owner: file.owner, merge: file.merge !== undefined }));
      const stamp = makeStamp(request.key, request.job, readFiles, written, { messages, notes }, request.startedAtNs, createdInputs);
      if (stamp === undefined) return undefined;
      return warnings === undefined ? stamp : { ...stamp, warnings: JSON.parse(JSON.stringify(warnings)) as unknown[] };
    },
  };
}
