/**
 * Answering the server's requests to the client (elicitation, sampling, roots, ping) on the
 * stateful revisions: the app's handler runs with a signal that `notifications/cancelled` aborts,
 * and its answer (or error) goes back as one JSON-RPC response, unless the server cancelled it.
 */
import type { JsonObject } from '../api.js';
import { McpError } from '../protocol/errors.js';
import {
  errorMessage,
  idJson,
  INTERNAL_ERROR,
  isObject,
  jsonOrUndefined,
  resultMessage,
  type RequestId,
} from '../protocol/jsonrpc.js';

export interface ServingContext {
  /** Requests being handled, by id; `notifications/cancelled` aborts them through it. */
  readonly serving: Map<RequestId, AbortController>;
  /** Runs the app's handler. */
  answer(signal: AbortSignal): Promise<JsonObject>;
  /** Sends the response text; undefined when the connection is gone. */
  send(text: string): Promise<void> | undefined;
}

export function serveServerRequest(id: RequestId, method: string, context: ServingContext): void {
  const controller = new AbortController();
  context.serving.set(id, controller);
  const idText = idJson(id);
  context
    .answer(controller.signal)
    .then(
      (result) => {
        const json = jsonOrUndefined(result);
        return json === undefined || !isObject(result)
          ? errorMessage(
              idText,
              INTERNAL_ERROR,
              `The client's ${method} handler returned something that is not a JSON object`,
            )
          : resultMessage(idText, json);
      },
      (error: unknown) =>
        error instanceof McpError
          ? errorMessage(idText, error.code, error.message, error.data)
          : errorMessage(
              idText,
              INTERNAL_ERROR,
              error instanceof Error ? error.message : String(error),
            ),
    )
    .then((text) => {
      const cancelled = controller.signal.aborted;
      context.serving.delete(id);
      // A response carries no Mcp-Method: the header names requests and notifications only.
      return cancelled ? undefined : context.send(text);
    })
    .catch(() => {});
}

/** A `notifications/progress`'s update, when it carries a numeric progress. */
export function progressUpdate(
  params: JsonObject,
): { progress: number; total?: number; message?: string } | undefined {
  if (typeof params['progress'] !== 'number') return undefined;
  const update: { progress: number; total?: number; message?: string } = {
    progress: params['progress'],
  };
  if (typeof params['total'] === 'number') update.total = params['total'];
  if (typeof params['message'] === 'string') update.message = params['message'];
  return update;
}
