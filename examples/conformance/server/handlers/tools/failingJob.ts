import type { ToolHandlers } from '../../generated/types.js';
import { sleep } from './sleep.js';

/** A job that runs, then reports a tool error (a completed task whose result has isError). */
export const failingJob: ToolHandlers['failing_job'] = async (_input, context) => {
  await sleep(1000, context.signal);
  return { isError: true, content: [{ type: 'text', text: 'The job failed: the upstream service refused it' }] };
};
