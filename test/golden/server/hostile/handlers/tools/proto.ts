import type { ToolHandlers } from '../../generated/types.js';

/**
 * The tool "__proto__".
 *
 * *\/ export const pwn = 1; /*
 */
export const proto: ToolHandlers['__proto__'] = async (_input, _context) => {
  // `input` was validated against the tool's inputSchema. `context.signal` tells when the client
  // cancels; `context.progress` and `context.log` send notifications. (Unused parameters start
  // with `_` so the stub compiles under noUnusedParameters: rename them as you use them.)
  return {
    isError: true,
    content: [
      { type: 'text', text: '__proto__ is not implemented yet: edit handlers/tools/proto.ts' },
    ],
  };
};
