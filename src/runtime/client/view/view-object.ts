/**
 * The object a generated view.ts types as its `View`, made from a connected bridge and the view's
 * table of tools (see bridge.ts). Copied beside it by `mcp-gen view`; imports only bridge.ts.
 */
import {
  isObject,
  OutputRejected,
  type Check,
  type ContentBlock,
  type DisplayMode,
  type HostContext,
  type JsonObject,
  type ViewBridge,
} from './bridge.js';

/**
 * What view.ts passes in: each tool the page shows results of, by wire name, with the check of its
 * output (undefined without an outputSchema); each tool the page may call, by method name.
 */
export interface ViewTable {
  shown: Readonly<Record<string, Check | undefined>>;
  callable: Readonly<Record<string, readonly [name: string, check: Check | undefined]>>;
}

/**
 * The object view.ts types as its `View`: tool calls, the host's tool notifications (results
 * checked first: one breaking its outputSchema goes to `onRejectedResult` instead), and the
 * page's requests to the host.
 */
export function viewOf(bridge: ViewBridge, table: ViewTable): JsonObject {
  const shownNames = Object.keys(table.shown);
  /** The tool the host opened the page for: named in toolInfo, or the only one the view shows. */
  const shownTool = (): string | undefined => {
    const named = bridge.hostContext.toolInfo?.tool.name;
    if (named !== undefined && Object.hasOwn(table.shown, named)) return named;
    return shownNames.length === 1 ? shownNames[0] : undefined;
  };
  const rejected = new Set<(error: OutputRejected) => void>();
  const tools: JsonObject = {};
  for (const [method, [name, check]] of Object.entries(table.callable)) {
    tools[method] = (args: unknown) => bridge.callTool(name, args, check);
  }
  const argumentsOf = (listener: (event: JsonObject) => void) => (params: JsonObject) =>
    listener({
      tool: shownTool(),
      arguments: isObject(params['arguments']) ? params['arguments'] : {},
    });
  return {
    tools,
    get hostContext() {
      return bridge.hostContext;
    },
    onToolInput: (listener: (event: JsonObject) => void) =>
      bridge.on('ui/notifications/tool-input', argumentsOf(listener)),
    onToolInputPartial: (listener: (event: JsonObject) => void) =>
      bridge.on('ui/notifications/tool-input-partial', argumentsOf(listener)),
    onToolResult: (listener: (event: JsonObject) => void) =>
      bridge.on('ui/notifications/tool-result', (result) => {
        const tool =
          shownTool() ??
          shownNames.find((name) => table.shown[name]?.(result['structuredContent']));
        const check = tool === undefined ? undefined : table.shown[tool];
        if (
          result['isError'] !== true &&
          check !== undefined &&
          !check(result['structuredContent'])
        ) {
          const error = new OutputRejected(tool ?? 'the tool', check.errors);
          for (const notify of rejected) notify(error);
          return;
        }
        listener({ tool, result });
      }),
    onToolCancelled: (listener: (reason: string) => void) =>
      bridge.on('ui/notifications/tool-cancelled', (params) =>
        listener(typeof params['reason'] === 'string' ? params['reason'] : ''),
      ),
    onRejectedResult: (listener: (error: OutputRejected) => void) => {
      rejected.add(listener);
      return () => rejected.delete(listener);
    },
    onHostContextChanged: (listener: (context: HostContext, changed: JsonObject) => void) =>
      // Registered after the bridge's own merge, so the context passed is already current.
      bridge.on('ui/notifications/host-context-changed', (changed) =>
        listener(bridge.hostContext, changed),
      ),
    onTeardown: (callback: (reason: string) => void | Promise<void>) => bridge.onTeardown(callback),
    openLink: async (url: string) => {
      await bridge.request('ui/open-link', { url });
    },
    sendMessage: async (message: string | ContentBlock[]) => {
      // An array of blocks, as ext-apps' hosts validate it.
      const content = typeof message === 'string' ? [{ type: 'text', text: message }] : message;
      await bridge.request('ui/message', { role: 'user', content });
    },
    updateModelContext: async (update: JsonObject) => {
      await bridge.request('ui/update-model-context', update);
    },
    requestDisplayMode: async (mode: DisplayMode) => {
      const result = await bridge.request('ui/request-display-mode', { mode });
      return typeof result['mode'] === 'string' ? result['mode'] : mode;
    },
    reportSize: (width: number, height: number) => bridge.reportSize(width, height),
    close: () => bridge.close(),
  };
}
