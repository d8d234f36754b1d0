import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UNIT_CACHE_FILE } from '../write/unit-cache.js';

/**
 * Starts the compilers on standby (compiler-standby.ts) as soon as the command line is parsed,
 * before the command's own modules load: on a warm run of `server` or `client` the thread then
 * has its libraries loaded by the time the few units that missed are sent. The guess is cheap
 * (the output folder holds a unit cache); the command ends the thread at once when the cache
 * proves unusable, and always when it returns. The standby module itself loads only then: a run
 * answered before (noop-server.ts) or a cold one does not pay for it.
 */
export async function startCompilersIfWarm(options: { out: string; watch?: boolean; check?: boolean; debugIr?: boolean }): Promise<void> {
  // Those runs use no unit cache (--check, --debug-ir) or keep their compilers loaded (--watch).
  if (options.watch === true || options.check === true || options.debugIr === true) return;
  if (existsSync(join(options.out, UNIT_CACHE_FILE))) (await import('../emit/compiler-standby.js')).startCompilerStandby();
}

/** Runs a `server` or `client` command with the compilers started early when the run looks warm, and ended when it returns. */
export async function withWarmCompilers<T>(options: Parameters<typeof startCompilersIfWarm>[0], run: () => Promise<T>): Promise<T> {
  await startCompilersIfWarm(options);
  try {
    return await run();
  } finally {
    // Loaded by now whenever a thread may run (the command's modules import it).
    (await import('../emit/compiler-standby.js')).stopCompilerStandby();
  }
}
