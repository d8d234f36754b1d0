import type { ToolHandlers } from '../../generated/types.js';
import { sleep } from './sleep.js';

/**
 * Works for `seconds`, then reports; `seconds: 0` answers at once (no task needed). Run as a task,
 * it says how far it got in the task's status message; asked for progress, it reports it too (so
 * a plain call's answer streams, as the fault tests need: test/scale/faults-redis.test.ts).
 */
export const slowCompute: ToolHandlers['slow_compute'] = async (input, context) => {
  const seconds = input.seconds ?? 1;
  const label = input.label ?? 'result';
  if (seconds > 0) {
    const work = async (): Promise<void> => {
      // Progress only when asked for: a task's progress would replace its status message (2026-07-28).
      const reports = context.meta?.['progressToken'] !== undefined;
      await context.setStatusMessage(`Computing ${label}`);
      if (reports) await context.progress(0, seconds);
      await sleep(seconds * 500, context.signal);
      await context.setStatusMessage(`Computing ${label}: half done`);
      if (reports) await context.progress(seconds / 2, seconds);
      await sleep(seconds * 500, context.signal);
    };
    await work().catch((reason: unknown) => {
      // Operators see a cancelled task stop (tests too: a task cancelled through another process).
      process.stderr.write(`slow_compute ${label}: stopped early (${reason instanceof Error ? reason.message : String(reason)})\n`);
      throw reason;
    });
  }
  return { content: [{ type: 'text', text: `Computed ${label} in ${seconds}s` }] };
};
