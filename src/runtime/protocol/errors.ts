/**
 * An error with a JSON-RPC code. Handlers of resources, prompts and completions may throw it to
 * choose the error the client sees (e.g. -32002 for a resource that does not exist); the runtime
 * also rejects `elicit`/`sample`/`listRoots` with it when the client answers with an error.
 */
export class McpError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'McpError';
    this.code = code;
    this.data = data;
  }
}
