import type { ToolHandlers } from '../../generated/types.js';

/**
 * The tool "list_repositories".
 *
 * The repositories of an owner.
 */
export const listRepositories: ToolHandlers['list_repositories'] = async (_input, _context) => {
  // `input` was validated against the tool's inputSchema. `context.signal` tells when the client
  // cancels; `context.progress` and `context.log` send notifications. (Unused parameters start
  // with `_` so the stub compiles under noUnusedParameters: rename them as you use them.)
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: 'list_repositories is not implemented yet: edit handlers/tools/listRepositories.ts',
      },
    ],
  };
};
