import type { ToolHandlers } from '../../generated/types.js';
import { sleep } from './sleep.js';

/** Works for `seconds`, then reports; `seconds: 0` answers at once (no task needed). */
export const slowCompute: ToolHandlers['slow_compute'] = async (input, context) => {
  const seconds = input.seconds ?? 1;
  const label = input.label ?? 'result';
  if (seconds > 0) {
    await sleep(seconds * 1000, context.signal).catch((reason: unknown) => {
      // Operators see a cancelled task stop (tests too: a task cancelled through another process).
      process.stderr.write(`slow_compute ${label}: stopped early (${reason instanceof Error ? reason.message : String(reason)})\n`);
      throw reason;
    });
  }
  return { content: [{ type: 'text', text: `Computed ${label} in ${seconds}s` }] };
};
