/**
 * tools/list and tools/call: input checked against the tool's schema, the handler run, and its
 * result held to the tool's contract (output schema, JSON only) before it is sent.
 */
import type { JsonObject } from '../../api.js';
import { Context } from '../../server/context.js';
import {
  INVALID_PARAMS,
  describeIssues,
  errorMessage,
  quoteValue,
  type RequestId,
} from '../../protocol/jsonrpc.js';
import { listPage } from '../../server/lists.js';
import {
  isThenable,
  metaOf,
  toolErrorMessage,
  register,
  type MethodTable,
} from '../../server/method-common.js';
import type { Outbound } from '../../server/outbound.js';
import type { Session } from '../../server/session.js';
import { callAsTask } from '../tasks/task-start.js';
import { callAfterLoading } from '../../server/tool-loading.js';
import { toolFailed, toolFinished } from './tool-results.js';
import { toolPagesFor, viewOnlyRefusal } from '../ui/ui-extension.js';
import { TOOLS_CALL, TOOLS_LIST } from '../../protocol/methods.js';

export function registerTools(table: MethodTable): void {
  register(table, TOOLS_LIST, listTools);
  register(table, TOOLS_CALL, callTool);
}

/**
 * A 2026-07-28 list keeps every outputSchema; the stateful one drops those that are not objects.
 * Disabled and filtered-out tools are left out (lists.ts).
 */
function listTools(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  // A host without MCP Apps gets the text-only fallback (ui/ui-extension.ts).
  const pages = toolPagesFor(
    session,
    session.stateless ? session.core.toolPages : session.core.statefulToolPages,
  );
  const state = session.core.toolList;
  if (!state.restricted) {
    listPage(pages, TOOLS_LIST, idText, params, out);
    return;
  }
  let context: Context | undefined;
  const contextOf = (): Context =>
    (context ??= new Context(session, id, idText, metaOf(params), out));
  listPage(
    pages,
    TOOLS_LIST,
    idText,
    params,
    out,
    (tool) => state.refusal(tool.name as string, contextOf) === undefined,
  );
}

function callTool(
  session: Session,
  id: RequestId,
  idText: string,
  params: JsonObject,
  out: Outbound,
): void {
  const name = params['name'];
  const tool = typeof name === 'string' ? session.core.tools.get(name) : undefined;
  if (tool === undefined) {
    out.respond(errorMessage(idText, INVALID_PARAMS, `Unknown tool: ${quoteValue(name)}`));
    return;
  }
  const context = new Context(session, id, idText, metaOf(params), out);
  const refused =
    (session.core.toolList.restricted
      ? session.core.toolList.refusal(tool.name, () => context)
      : undefined) ?? viewOnlyRefusal(session, tool.wire);
  if (refused !== undefined) {
    // The same answer as for a tool the server never had, and it says why: nothing runs.
    out.respond(errorMessage(idText, INVALID_PARAMS, `Tool ${quoteValue(name)} ${refused}`));
    return;
  }
  if (tool.loadValidators !== undefined) {
    callAfterLoading(session, context, tool, () => callTool(session, id, idText, params, out));
    return;
  }
  const args = params['arguments'] === undefined ? {} : params['arguments'];
  if (!tool.validateInput(args)) {
    out.respond(
      toolErrorMessage(
        idText,
        `Invalid arguments for tool ${tool.name}: ${describeIssues(tool.validateInput.errors)}`,
      ),
    );
    return;
  }
  if (tool.taskSupport !== 'forbidden' || params['task'] !== undefined) {
    if (callAsTask(session, id, idText, params, out, tool, args)) return;
  }
  context.toolName = tool.name;
  let result: unknown;
  const tracing = session.core.tracing;
  try {
    result =
      tracing === undefined
        ? tool.handler(args, context)
        : tracing.runHandler(context, tool.name, () => tool.handler(args, context));
  } catch (error) {
    toolFailed(session, context, tool, error);
    return;
  }
  if (isThenable(result)) {
    session.track(context);
    result.then(
      (value) => toolFinished(session, context, tool, value),
      (error: unknown) => toolFailed(session, context, tool, error),
    );
  } else {
    toolFinished(session, context, tool, result);
  }
}
