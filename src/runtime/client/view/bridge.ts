/**
 * The page's side of MCP Apps (the `io.modelcontextprotocol/ui` extension, 2026-01-26): JSON-RPC
 * over postMessage with the host that frames the page. `mcp-gen view` copies this file beside the
 * typed bindings it writes (view.ts), which are what pages use. It imports nothing and needs no DOM
 * types (the few browser objects it touches are described below), so it compiles under any tsconfig.
 */

export type JsonObject = { [key: string]: unknown };
export type DisplayMode = 'inline' | 'fullscreen' | 'pip';

/** What the host tells the page about where it is shown; `ui/notifications/host-context-changed` updates it. */
export interface HostContext {
  theme?: 'light' | 'dark';
  displayMode?: DisplayMode;
  availableDisplayModes?: string[];
  locale?: string;
  timeZone?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  containerDimensions?: { width?: number; maxWidth?: number; height?: number; maxHeight?: number };
  /** The tools/call this page was opened for. */
  toolInfo?: { id?: string | number; tool: { name: string; [key: string]: unknown } };
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  [key: string]: unknown;
}

/** A content block as the protocol has it (text is the one a page usually sends). */
export type ContentBlock =
  { type: 'text'; text: string } | { type: string; [key: string]: unknown };

/** A failed JSON-RPC request to the host, or a tool that answered `isError: true`. */
export class HostError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(message: string, code: number, data?: unknown) {
    super(message);
    this.name = 'HostError';
    this.code = code;
    this.data = data;
  }
}

/** A tool result whose `structuredContent` breaks the tool's outputSchema: the page never sees it. */
export class OutputRejected extends Error {
  readonly tool: string;
  readonly issues: unknown;
  constructor(tool: string, issues: unknown) {
    super(`The result of ${tool} does not match its outputSchema: ${JSON.stringify(issues)}`);
    this.name = 'OutputRejected';
    this.tool = tool;
    this.issues = issues;
  }
}

/** A precompiled validator (validators.ts). */
export interface Check {
  (data: unknown): boolean;
  errors?: unknown;
}

/** The browser objects the bridge touches, described here so no DOM library is needed. */
interface MessageEventLike {
  data: unknown;
  source: unknown;
}
interface PostTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}
interface PageScope {
  parent: PostTarget;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  document?: { documentElement: { scrollWidth: number; scrollHeight: number } };
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  ResizeObserver?: new (callback: () => void) => {
    observe(target: unknown): void;
    disconnect(): void;
  };
}

export interface BridgeOptions {
  appInfo: { name: string; version: string };
  /** Display modes the page can handle (`appCapabilities.availableDisplayModes`). */
  availableDisplayModes?: DisplayMode[];
  /** Report the page's size to the host whenever it changes (default true). */
  autoResize?: boolean;
  /** How long to wait for the host's answer to one request (default 30 s). */
  timeoutMs?: number;
}

type Pending = {
  resolve: (result: JsonObject) => void;
  reject: (error: Error) => void;
  timer: unknown;
};
type Listener = (params: JsonObject) => void;

export const VIEW_PROTOCOL_VERSION = '2026-01-26';

/** One connection from the page to its host: made by `ViewBridge.connect`, which does the handshake. */
export class ViewBridge {
  hostContext: HostContext = {};
  hostCapabilities: JsonObject = {};
  hostInfo: JsonObject = {};
  private readonly scope: PageScope;
  private readonly timeoutMs: number;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly teardowns = new Set<(reason: string) => void | Promise<void>>();
  /** Notifications that came before anyone listened (the tool input may beat the page's listeners). */
  private readonly unheard = new Map<string, JsonObject[]>();
  private nextId = 1;
  private resize: { disconnect(): void } | undefined;
  private readonly onMessage = (event: MessageEventLike): void => this.receive(event);

  private constructor(scope: PageScope, timeoutMs: number) {
    this.scope = scope;
    this.timeoutMs = timeoutMs;
    scope.addEventListener('message', this.onMessage);
  }

  /** `ui/initialize`, then `ui/notifications/initialized`: the host sends nothing before both. */
  static async connect(options: BridgeOptions): Promise<ViewBridge> {
    const scope = globalThis as unknown as PageScope;
    if (scope.parent === undefined || (scope.parent as unknown) === globalThis)
      throw new Error('This page is not framed by an MCP Apps host');
    const bridge = new ViewBridge(scope, options.timeoutMs ?? 30_000);
    const appCapabilities: JsonObject = {};
    if (options.availableDisplayModes !== undefined)
      appCapabilities['availableDisplayModes'] = options.availableDisplayModes;
    const result = await bridge.request('ui/initialize', {
      protocolVersion: VIEW_PROTOCOL_VERSION,
      appInfo: options.appInfo,
      appCapabilities,
    });
    bridge.hostContext = isObject(result['hostContext'])
      ? (result['hostContext'] as HostContext)
      : {};
    bridge.hostCapabilities = isObject(result['hostCapabilities'])
      ? result['hostCapabilities']
      : {};
    bridge.hostInfo = isObject(result['hostInfo']) ? result['hostInfo'] : {};
    bridge.on('ui/notifications/host-context-changed', (changed) => {
      bridge.hostContext = { ...bridge.hostContext, ...changed };
    });
    bridge.notify('ui/notifications/initialized', {});
    if (options.autoResize !== false) bridge.watchSize();
    return bridge;
  }

  /** Sends a request to the host and resolves with its result. */
  request(method: string, params: JsonObject): Promise<JsonObject> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = this.scope.setTimeout(() => {
        this.pending.delete(id);
        reject(new HostError(`The host did not answer ${method} in time`, -32001));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.post({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: JsonObject): void {
    this.post({ jsonrpc: '2.0', method, params });
  }

  /** Listens to one notification from the host; returns the function that stops listening. */
  on(method: string, listener: Listener): () => void {
    let set = this.listeners.get(method);
    if (set === undefined) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    const queued = this.unheard.get(method);
    if (queued !== undefined) {
      this.unheard.delete(method);
      for (const params of queued) listener(params);
    }
    return () => set.delete(listener);
  }

  /** Runs before the host tears the page down (`ui/resource-teardown`); the host waits for it. */
  onTeardown(callback: (reason: string) => void | Promise<void>): () => void {
    this.teardowns.add(callback);
    return () => this.teardowns.delete(callback);
  }

  /** `tools/call` through the host, the result's `structuredContent` checked by `check` when given. */
  async callTool(name: string, args: unknown, check?: Check): Promise<JsonObject> {
    const result = await this.request('tools/call', { name, arguments: args });
    if (result['isError'] === true)
      throw new HostError(textOf(result) || `${name} failed`, -32000, result);
    if (check !== undefined && !check(result['structuredContent']))
      throw new OutputRejected(name, check.errors);
    return result;
  }

  /** Reports the page's size (`ui/notifications/size-changed`). */
  reportSize(width: number, height: number): void {
    this.notify('ui/notifications/size-changed', { width, height });
  }

  close(): void {
    this.scope.removeEventListener('message', this.onMessage);
    this.resize?.disconnect();
    for (const pending of this.pending.values()) {
      this.scope.clearTimeout(pending.timer);
      pending.reject(new HostError('The bridge was closed', -32000));
    }
    this.pending.clear();
  }

  private watchSize(): void {
    const root = this.scope.document?.documentElement;
    const Observer = this.scope.ResizeObserver;
    if (root === undefined || Observer === undefined) return;
    let last = '';
    const report = (): void => {
      const size = `${root.scrollWidth}x${root.scrollHeight}`;
      if (size === last) return;
      last = size;
      this.reportSize(root.scrollWidth, root.scrollHeight);
    };
    const observer = new Observer(report);
    observer.observe(root);
    this.resize = observer;
    report();
  }

  private post(message: JsonObject): void {
    // The host decides where the page runs; the page answers only its parent (checked on receipt).
    this.scope.parent.postMessage(message, '*');
  }

  private receive(event: MessageEventLike): void {
    if (event.source !== this.scope.parent || !isObject(event.data)) return;
    const message = event.data;
    if (message['jsonrpc'] !== '2.0') return;
    const method = message['method'];
    const id = message['id'];
    if (typeof method === 'string') {
      const params = isObject(message['params']) ? message['params'] : {};
      if (id === undefined) {
        const listeners = this.listeners.get(method);
        if (listeners === undefined || listeners.size === 0)
          this.unheard.set(method, [...(this.unheard.get(method) ?? []), params]);
        else for (const listener of listeners) listener(params);
      } else void this.answer(id, method, params);
      return;
    }
    const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (pending === undefined || typeof id !== 'number') return;
    this.pending.delete(id);
    this.scope.clearTimeout(pending.timer);
    const error = message['error'];
    if (isObject(error)) {
      const code = typeof error['code'] === 'number' ? error['code'] : -32603;
      pending.reject(
        new HostError(String(error['message'] ?? 'The host refused'), code, error['data']),
      );
    } else pending.resolve(isObject(message['result']) ? message['result'] : {});
  }

  /** The host's requests: teardown and ping; anything else is a method this page does not have. */
  private async answer(id: unknown, method: string, params: JsonObject): Promise<void> {
    if (method === 'ui/resource-teardown') {
      const reason = typeof params['reason'] === 'string' ? params['reason'] : '';
      for (const teardown of this.teardowns) await teardown(reason);
      this.post({ jsonrpc: '2.0', id, result: {} });
    } else if (method === 'ping') this.post({ jsonrpc: '2.0', id, result: {} });
    else
      this.post({
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: `Method not found: ${method}` },
      });
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text blocks of a result, joined: what the model reads. */
export function textOf(result: JsonObject): string {
  const content = Array.isArray(result['content']) ? result['content'] : [];
  return content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string',
    )
    .map((block) => block.text)
    .join('\n');
}
