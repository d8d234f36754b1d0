import type { ToolHandlers } from '../../generated/types.js';
import { sleep } from './sleep.js';

/** Works for `seconds`, then reports; `seconds: 0` answers at once (no task needed). */
export const slowCompute: ToolHandlers['slow_compute'] = async (input, context) => {
  const seconds = input.seconds ?? 1;
  if (seconds > 0) await sleep(seconds * 1000, context.signal);
  return { content: [{ type: 'text', text: `Computed ${input.label ?? 'result'} in ${seconds}s` }] };
};
