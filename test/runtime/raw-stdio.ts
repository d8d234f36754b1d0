/** Drives `serveStdio` in-process with raw lines, for checks the SDK client would never send. */
import { PassThrough } from 'node:stream';
import { createServer, type McpServer, type ServerDefinition, type ServerHandlers } from '../../src/runtime/index.js';
import { buildDefinition, handlers } from './fixtures/demo-server.js';

export type Message = Record<string, any>;

export class RawStdio {
  readonly input = new PassThrough();
  readonly output = new PassThrough();
  readonly received: Message[] = [];
  readonly serverLog: string[] = [];
  readonly done: Promise<void>;
  /** The server under test, for its run-time controls (`tools`, `prompts`, `notify`). */
  readonly server: McpServer;
  private readonly waiters: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  private partial = '';

  /** `server`, when given, is served on this new connection instead of a server of its own. */
  constructor(pageSize = 3, adjust: (definition: ServerDefinition) => ServerDefinition = (d) => d, serverHandlers: ServerHandlers = handlers, server?: McpServer) {
    server ??= createServer(adjust(buildDefinition(pageSize)), serverHandlers, { logger: (line) => this.serverLog.push(line) });
    this.server = server;
    this.done = server.serveStdio({ input: this.input, output: this.output });
    this.output.setEncoding('utf8');
    this.output.on('data', (chunk: string) => {
      const lines = (this.partial + chunk).split('\n');
      this.partial = lines.pop()!;
      for (const line of lines) {
        const message = JSON.parse(line) as Message;
        this.received.push(message);
        const index = this.waiters.findIndex((w) => w.test(message));
        if (index !== -1) this.waiters.splice(index, 1)[0]!.resolve(message);
      }
    });
  }

  send(line: string): void {
    this.input.write(line + '\n');
  }

  sendJson(message: unknown): void {
    this.send(JSON.stringify(message));
  }

  /** The first message (already received or still to come) that passes `test`. */
  waitFor(test: (m: Message) => boolean): Promise<Message> {
    const found = this.received.find(test);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  response(id: unknown): Promise<Message> {
    return this.waitFor((m) => m['id'] === id && m['method'] === undefined);
  }

  /** Sends a request and waits for its response. */
  async call(id: string | number, method: string, params?: unknown): Promise<Message> {
    this.sendJson({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return this.response(id);
  }

  async initialize(protocolVersion = '2025-11-25', capabilities: Message = {}): Promise<Message> {
    const response = await this.call('init', 'initialize', {
      protocolVersion,
      capabilities,
      clientInfo: { name: 'raw', version: '1' },
    });
    this.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }
}
