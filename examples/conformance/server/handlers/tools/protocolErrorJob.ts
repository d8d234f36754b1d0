import type { ToolHandlers } from '../../generated/types.js';
import { McpError } from '../../generated/runtime/index.js';
import { sleep } from './sleep.js';

/** Throws an McpError: as a task it ends `failed` with that JSON-RPC error. */
export const protocolErrorJob: ToolHandlers['protocol_error_job'] = async (_input, context) => {
  await sleep(200, context.signal);
  throw new McpError(-32603, 'The job crashed: internal failure');
};
