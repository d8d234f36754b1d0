import type { ToolHandlers } from '../../generated/types.js';

/** The tool "1abc". */
export const _1abc: ToolHandlers['1abc'] = async (_input, _context) => {
  // `input` was validated against the tool's inputSchema. `context.signal` tells when the client
  // cancels; `context.progress` and `context.log` send notifications. (Unused parameters start
  // with `_` so the stub compiles under noUnusedParameters: rename them as you use them.)
  return {
    isError: true,
    content: [{ type: 'text', text: '1abc is not implemented yet: edit handlers/tools/_1abc.ts' }],
  };
};
