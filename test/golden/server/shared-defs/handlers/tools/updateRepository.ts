import type { ToolHandlers } from '../../generated/types.js';

/**
 * The tool "update_repository".
 *
 * Changes a repository's description or default branch, and returns it.
 */
export const updateRepository: ToolHandlers['update_repository'] = async (_input, _context) => {
  // `input` was validated against the tool's inputSchema. `context.signal` tells when the client
  // cancels; `context.progress` and `context.log` send notifications. (Unused parameters start
  // with `_` so the stub compiles under noUnusedParameters: rename them as you use them.)
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: 'update_repository is not implemented yet: edit handlers/tools/updateRepository.ts',
      },
    ],
  };
};
