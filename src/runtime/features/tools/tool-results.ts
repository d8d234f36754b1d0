/**
 * The end of a tools/call, run inline or as a task (task-run.ts): the handler's result held to the
 * tool's contract (output schema, JSON only) before it is sent, or its error sent as a tool error.
 */
import type { JsonObject } from '../../api.js';
import type { Context } from '../../server/context.js';
import {
  describeIssues,
  isObject,
  jsonOrUndefined,
  resultMessage,
} from '../../protocol/jsonrpc.js';
import { stackOf, toolErrorMessage } from '../../server/method-common.js';
import type { ToolEntry } from '../../server/server.js';
import type { Session } from '../../server/session.js';
import { answerInputError } from '../input/url-elicitation.js';
import { completeResultHead } from '../../server/stateless.js';
import { TOOLS_CALL } from '../../protocol/methods.js';

export function toolFinished(
  session: Session,
  context: Context,
  tool: ToolEntry,
  result: unknown,
): void {
  if (!session.settle(context)) return;
  let text: string;
  const tracing = session.core.tracing;
  // A 2026-07-28 answer sent now opens with the fields its transport adds (`withResultFields`),
  // so a large result is not copied and scanned again. A task's result is answered later, by
  // another request, and stays as it is.
  const head =
    session.stateless && context.task === undefined
      ? completeResultHead(session.core, TOOLS_CALL)
      : undefined;
  try {
    text =
      tracing === undefined
        ? toolResultMessage(session, context.idText, tool, result, head)
        : tracing.checkOutput(context, tool.name, () =>
            toolResultMessage(session, context.idText, tool, result, head),
          );
  } catch (error) {
    // Only a broken validator gets here; on the async path a throw would be an unhandled rejection.
    session.core.log(`Checking the result of tool ${tool.name} failed: ${stackOf(error)}`);
    text = toolErrorMessage(
      context.idText,
      `Tool ${tool.name} returned a result that could not be checked`,
    );
  }
  context.out.respond(text);
}

export function toolFailed(
  session: Session,
  context: Context,
  tool: ToolEntry,
  error: unknown,
): void {
  if (answerInputError(session, context, error)) return;
  if (!session.settle(context)) return;
  session.core.log(`Tool ${tool.name} threw: ${stackOf(error)}`);
  const message = error instanceof Error ? error.message : String(error);
  context.out.respond(
    toolErrorMessage(context.idText, message === '' ? `Tool ${tool.name} failed` : message),
  );
}

/**
 * Output enforcement: a result that breaks the tool's contract is never sent as success; the
 * client gets `isError: true` with one text block saying what was wrong, and the detail is logged.
 * `head` (`completeResultHead`) opens a successful result without a `_meta` of its own.
 */
function toolResultMessage(
  session: Session,
  idText: string,
  tool: ToolEntry,
  result: unknown,
  head: string | undefined,
): string {
  if (!isObject(result)) {
    return toolRefused(
      session,
      idText,
      `Tool ${tool.name} returned ${describeType(result)} instead of a result object`,
    );
  }
  if (result['isError'] === true) {
    const json = jsonOrUndefined(result);
    return json === undefined
      ? toolRefused(
          session,
          idText,
          `Tool ${tool.name} returned an error result that cannot be serialized as JSON`,
        )
      : resultMessage(idText, json);
  }
  const structured = result['structuredContent'];
  // Judged as it will be sent. Plain data (what JSON.parse could have made) is sent as it is and
  // checked as it is; anything JSON.stringify would change (NaN and Infinity become null,
  // undefined and functions vanish, toJSON such as a Date's runs) is checked on its JSON text
  // read back. Reading back every result would cost a parse per call.
  const structuredJson = structured === undefined ? undefined : jsonOrUndefined(structured);
  if (structured !== undefined && structuredJson === undefined) {
    return toolRefused(
      session,
      idText,
      `Tool ${tool.name} returned structured content that is not JSON`,
    );
  }
  if (tool.validateOutput !== undefined) {
    if (structuredJson === undefined) {
      return toolRefused(
        session,
        idText,
        `Tool ${tool.name} declares an outputSchema but returned no structured content`,
      );
    }
    if (
      !tool.validateOutput(isPlainJson(structured, 0) ? structured : JSON.parse(structuredJson))
    ) {
      return toolRefused(
        session,
        idText,
        `Tool ${tool.name} returned structured content that does not match its outputSchema: ${describeIssues(tool.validateOutput.errors)}`,
      );
    }
  }
  if (!tool.objectOutput && !session.stateless && structuredJson !== undefined)
    return textOnlyResult(session, idText, tool, result, structuredJson);
  if (result['content'] === undefined) {
    if (structuredJson === undefined) {
      return toolRefused(
        session,
        idText,
        `Tool ${tool.name} returned neither content nor structuredContent`,
      );
    }
    const meta = result['_meta'] === undefined ? '' : jsonOrUndefined(result['_meta']);
    if (meta === undefined)
      return toolRefused(session, idText, `Tool ${tool.name} returned a _meta that is not JSON`);
    // The text block is the JSON of the structured content: stringify once, use it twice.
    return (
      '{"jsonrpc":"2.0","id":' +
      idText +
      ',"result":{' +
      (head === undefined || meta !== '' ? '' : head + ',') +
      '"content":[{"type":"text","text":' +
      JSON.stringify(structuredJson) +
      '}],"structuredContent":' +
      structuredJson +
      (meta === '' ? '}}' : ',"_meta":' + meta + '}}')
    );
  }
  if (structuredJson === undefined) {
    const json = jsonOrUndefined(result);
    if (json === undefined)
      return toolRefused(session, idText, `Tool ${tool.name} returned a result that is not JSON`);
    return resultMessage(idText, json);
  }
  // The checked text is the one sent: the rest of the result around it, never stringified twice.
  // Prototype-free, so a handler's own "__proto__" key stays a key.
  const rest = Object.create(null) as JsonObject;
  for (const key of Object.keys(result)) if (key !== 'structuredContent') rest[key] = result[key];
  const restJson = jsonOrUndefined(rest);
  if (restJson === undefined)
    return toolRefused(session, idText, `Tool ${tool.name} returned a result that is not JSON`);
  // With a `_meta`, or a `resultType` first, of its own, `withResultFields` decides what to add.
  const opened =
    head === undefined || result['_meta'] !== undefined || restJson.startsWith('{"resultType"')
      ? restJson.slice(0, -1)
      : '{' + head + ',' + restJson.slice(1, -1);
  return resultMessage(
    idText,
    opened + (restJson === '{}' ? '' : ',') + '"structuredContent":' + structuredJson + '}',
  );
}

/**
 * A revision before 2026-07-28 allows only objects as structuredContent: a tool whose output is
 * another JSON value is answered with the value's JSON as text (or the handler's own content).
 */
function textOnlyResult(
  session: Session,
  idText: string,
  tool: ToolEntry,
  result: JsonObject,
  structuredJson: string,
): string {
  const { structuredContent: _sent, ...rest } = result;
  if (rest['content'] === undefined) rest['content'] = [{ type: 'text', text: structuredJson }];
  const text = jsonOrUndefined(rest);
  return text === undefined
    ? toolRefused(session, idText, `Tool ${tool.name} returned a result that is not JSON`)
    : resultMessage(idText, text);
}

function toolRefused(session: Session, idText: string, message: string): string {
  session.core.log(message);
  return toolErrorMessage(idText, message);
}

/** Deeper values are read back rather than walked (the walk recurses). */
const MAX_PLAIN_DEPTH = 100;

/**
 * True when JSON.stringify gives back exactly this value: strings, finite numbers, booleans, null,
 * arrays without holes and objects with only own enumerable keys, no toJSON, and the plain prototypes.
 */
function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > MAX_PLAIN_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (
    (proto !== Object.prototype && proto !== null) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || !isPlainJson((value as JsonObject)[key], depth + 1))
      return false;
  }
  return true;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
}
