/**
 * `tools/call` as generated clients make it: a tool bound at generation (its output validator and
 * `Mcp-Param-*` mirrors) or found by `tools/list` at run time, the result held to the tool's
 * contract, and a refused call recovered (a URL elicitation, an undeclared capability; input-rounds.ts).
 */
import type { JsonObject, Validator } from '../api.js';
import {
  levelToSet,
  paramsWithMeta,
  requestOptions,
  setLogLevel,
  type CallOptions,
} from './call-options.js';
import { OutputValidationError, ToolError } from './errors.js';
import { headerMirrors, paramHeaders, type HeaderMirror } from './headers.js';
import { recoverToolCall } from './input-rounds.js';
import type { ClientSession } from './session.js';
import { TOOLS_CALL } from '../protocol/methods.js';

/** What generated code knows about one tool. */
export interface ClientToolBinding {
  /** Wire name. */
  readonly name: string;
  /** Present exactly when the tool declares an outputSchema. */
  readonly validateOutput?: Validator<unknown>;
  /** Arguments mirrored into `Mcp-Param-<header>` (HTTP). */
  readonly headers?: readonly HeaderMirror[];
}

/**
 * A binding for a tool known only at run time (from tools/list): its header mirrors, or why it must
 * not be called (invalid `x-mcp-header`). Output is not validated: there is no precompiled validator.
 */
export function bindListedTool(
  tool: JsonObject,
): { binding: ClientToolBinding } | { problem: string } {
  const name = tool['name'];
  if (typeof name !== 'string') return { problem: 'the tool has no name' };
  const input = tool['inputSchema'];
  const mirrors =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? headerMirrors(input as JsonObject)
      : { mirrors: [] };
  if ('problem' in mirrors) return { problem: `tool ${JSON.stringify(name)}: ${mirrors.problem}` };
  return { binding: mirrors.mirrors.length > 0 ? { name, headers: mirrors.mirrors } : { name } };
}

/**
 * `tools/call`, then: `isError` → ToolError; a tool with an outputSchema → its `structuredContent`,
 * validated (OutputValidationError keeps the raw result); otherwise the whole result.
 */
export async function callTool(
  session: ClientSession,
  binding: ClientToolBinding,
  input: unknown,
  options?: CallOptions,
): Promise<unknown> {
  let result: JsonObject;
  try {
    result = await sendToolCall(session, binding, input, options);
  } catch (error) {
    result = await recovered(session, binding, input, options, error);
  }
  return toolOutcome(binding, result);
}

/**
 * A tool's result held to its contract: `isError` → ToolError; with an outputSchema its validated
 * `structuredContent`; otherwise the whole result. A task's result is held the same way (tasks.ts).
 */
export function toolOutcome(binding: ClientToolBinding, result: JsonObject): unknown {
  if (result['isError'] === true) throw new ToolError(binding.name, result);
  if (binding.validateOutput === undefined) return result;
  return validatedOutput(binding, result);
}

/**
 * `tools/call` resolving with the whole result (`content`, `structuredContent`, `_meta`, `isError`):
 * an `isError` result is returned, not thrown; otherwise a tool with an outputSchema has its
 * `structuredContent` validated as `callTool` does.
 */
export async function callToolFull(
  session: ClientSession,
  binding: ClientToolBinding,
  input: unknown,
  options?: CallOptions,
): Promise<JsonObject> {
  let result: JsonObject;
  try {
    result = await sendToolCall(session, binding, input, options);
  } catch (error) {
    result = await recovered(session, binding, input, options, error);
  }
  if (result['isError'] !== true && binding.validateOutput !== undefined)
    validatedOutput(binding, result);
  return result;
}

/**
 * Sends the call. Not async: a call with no log level to set goes straight to the session, so the
 * answer reaches the caller through no promise of this function's own.
 */
function sendToolCall(
  session: ClientSession,
  binding: ClientToolBinding,
  input: unknown,
  options: CallOptions | undefined,
): Promise<JsonObject> {
  let request = requestOptions(options);
  if (binding.headers !== undefined && binding.headers.length > 0)
    request = { ...request, headers: paramHeaders(binding.headers, input) };
  const params: JsonObject = { name: binding.name, arguments: input ?? {} };
  const level = levelToSet(session, options);
  if (level === undefined)
    return session.request(TOOLS_CALL, paramsWithMeta(session, params, options), request);
  return setLogLevel(session, level, options).then(() =>
    session.request(TOOLS_CALL, paramsWithMeta(session, params, options), request),
  );
}

/** A refused call: a URL elicitation first, or an undeclared capability as ToolError (input-rounds.ts). */
function recovered(
  session: ClientSession,
  binding: ClientToolBinding,
  input: unknown,
  options: CallOptions | undefined,
  error: unknown,
): Promise<JsonObject> {
  return recoverToolCall(
    binding.name,
    session.handlers,
    error,
    () => sendToolCall(session, binding, input, options),
    options?.signal,
  );
}

/**
 * A tool by wire name, known at generation (`known`: validated and typed as its method), listed by
 * `listTools()` since (`listed`: its header mirrors, and its `structuredContent` when it declares an
 * outputSchema), or neither (the whole result). `isError` rejects with ToolError either way.
 */
export function callToolByName(
  session: ClientSession,
  known: ReadonlyMap<string, ClientToolBinding>,
  listed: ReadonlyMap<string, ClientToolBinding>,
  name: string,
  input: unknown,
  options: CallOptions = {},
): Promise<unknown> {
  return callTool(session, known.get(name) ?? listed.get(name) ?? { name }, input, options);
}

/** Keeps a binding for each listed tool (`callToolByName`); resolves with the list unchanged. */
export async function rememberListedTools(
  listing: Promise<JsonObject[]>,
  listed: Map<string, ClientToolBinding>,
): Promise<JsonObject[]> {
  const tools = await listing;
  for (const tool of tools) {
    const bound = bindListedTool(tool);
    if (!('binding' in bound)) continue;
    // No precompiled validator: the listed outputSchema only says structuredContent must be there.
    const structured = typeof tool['outputSchema'] === 'object' && tool['outputSchema'] !== null;
    listed.set(
      bound.binding.name,
      structured ? { ...bound.binding, validateOutput: anyOutput } : bound.binding,
    );
  }
  return tools;
}

const anyOutput: Validator<unknown> = Object.assign((_value: unknown): _value is unknown => true, {
  errors: null,
});

/** The result's `structuredContent` if the tool's validator accepts it; OutputValidationError (keeping the raw result) otherwise. */
function validatedOutput(binding: ClientToolBinding, result: JsonObject): unknown {
  const validate = binding.validateOutput as Validator<unknown>;
  if (!('structuredContent' in result))
    throw new OutputValidationError(binding.name, result, [], 'it has no structuredContent');
  const output = result['structuredContent'];
  if (!validate(output)) throw new OutputValidationError(binding.name, result, validate.errors);
  return output;
}
