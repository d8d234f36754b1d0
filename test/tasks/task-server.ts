/**
 * A small server whose tools run as tasks, for the task tests: `export_report` (optional; works
 * until released or cancelled), `approve` (required; asks the user first), `quick` (never a task).
 * `released` lets a test finish a running export; `aborted` records the signals that fired.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject, ServerDefinition, ServerHandlers, TaskOptions, Validator } from '../../src/runtime/api.js';
import { PassThrough } from 'node:stream';
import { createServer, type McpServer } from '../../src/runtime/index.js';
import { requestValidators } from '../../generated/runtime/request-validators.js';
import { validateInitializeRequest } from '../../generated/runtime/initialize-validators.js';
import { resultValidators } from '../../generated/runtime/result-validators.js';

const ajv = new Ajv2020({ strict: false });
const compile = (schema: JsonObject) => ajv.compile(schema) as Validator<unknown>;
const exportInput = { type: 'object', properties: { rows: { type: 'integer' } }, required: ['rows'] };
const exportOutput = { type: 'object', properties: { url: { type: 'string' }, rows: { type: 'integer' } }, required: ['url', 'rows'] };
const anyInput = { type: 'object' };

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export function taskDefinition(): ServerDefinition {
  return {
    serverInfo: { name: 'task-demo', version: '1.0.0' },
    protocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18'],
    capabilities: { tools: {} },
    tools: [
      { name: 'export_report', inputSchema: exportInput, outputSchema: exportOutput, execution: { taskSupport: 'optional' } },
      { name: 'approve', inputSchema: anyInput, execution: { taskSupport: 'required' } },
      { name: 'quick', inputSchema: anyInput },
    ],
    toolBindings: {
      export_report: { name: 'export_report', validateInput: compile(exportInput), validateOutput: compile(exportOutput) },
      approve: { name: 'approve', validateInput: compile(anyInput) },
      quick: { name: 'quick', validateInput: compile(anyInput) },
    },
    resources: [],
    resourceTemplates: [],
    prompts: [],
    initializeValidator: validateInitializeRequest,
    requestValidators,
    resultValidators,
    statelessValidators: () => import('../../generated/runtime/stateless-validators.js').then((m) => m.statelessValidators),
  };
}

/** Handlers plus the levers a test pulls: finish the running exports, see which were aborted. */
export function taskHandlers(): { handlers: ServerHandlers; release(): void; aborted: string[] } {
  const waiting: (() => void)[] = [];
  const aborted: string[] = [];
  const handlers: ServerHandlers = {
    tools: {
      export_report: async (input: { rows: number; note?: string; later?: string }, context) => {
        // `note`: the task's status message from the start; `later`: the one it shows once released.
        if (input.note !== undefined) await context.setStatusMessage(input.note);
        await new Promise<void>((resolve, reject) => {
          waiting.push(resolve);
          context.signal.addEventListener('abort', () => {
            aborted.push(`export_report ${input.rows}`);
            reject(new Error('stopped'));
          });
        });
        if (input.later !== undefined) {
          await context.setStatusMessage(input.later);
          await new Promise<void>((resolve) => waiting.push(resolve));
        }
        return { structuredContent: { url: `https://files.example/report-${input.rows}.csv`, rows: input.rows } };
      },
      approve: async (input: { note?: string }, context) => {
        if (input.note !== undefined) await context.setStatusMessage(input.note);
        const answer = await context.elicit({ message: 'Approve?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }, { key: 'approval' });
        // With a note, it works on after the answer until released (its note shows again meanwhile).
        if (input.note !== undefined) await new Promise<void>((resolve) => waiting.push(resolve));
        return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.['ok'] === true ? 'approved' : 'refused' }] };
      },
      quick: () => ({ content: [{ type: 'text', text: 'done' }] }),
    },
  };
  return { handlers, aborted, release: () => waiting.splice(0).forEach((resolve) => resolve()) };
}

export function taskServer(tasks?: TaskOptions) {
  const levers = taskHandlers();
  const log: string[] = [];
  const server = createServer(taskDefinition(), levers.handlers, { logger: (line) => log.push(line), tasks: tasks ?? {} });
  return { server, log, ...levers };
}

export function meta(capabilities: JsonObject = { extensions: { [TASKS_EXTENSION]: {} } }): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'task-test', version: '1' },
  };
}

type Message = Record<string, any>;

/** One stdio connection to `server`, driven with raw JSON-RPC lines. */
export class Wire {
  readonly received: Message[] = [];
  private readonly input = new PassThrough();
  private readonly waiters: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  private nextId = 1;

  constructor(server: McpServer) {
    const output = new PassThrough();
    void server.serveStdio({ input: this.input, output });
    output.setEncoding('utf8');
    let partial = '';
    output.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const message = JSON.parse(line) as Message;
        this.received.push(message);
        const index = this.waiters.findIndex((w) => w.test(message));
        if (index !== -1) this.waiters.splice(index, 1)[0]!.resolve(message);
      }
    });
  }

  send(message: Message): void {
    this.input.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  }

  waitFor(test: (m: Message) => boolean): Promise<Message> {
    const found = this.received.find(test);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** Sends a request and resolves with the whole response (result or error). */
  request(method: string, params: Message = {}): Promise<Message> {
    const id = this.nextId++;
    this.send({ id, method, params });
    return this.waitFor((m) => m['id'] === id && m['method'] === undefined);
  }

  async initialize(capabilities: Message = {}, protocolVersion = '2025-11-25'): Promise<Message> {
    const response = await this.request('initialize', { protocolVersion, capabilities, clientInfo: { name: 'task-test', version: '1' } });
    this.send({ method: 'notifications/initialized' });
    return response;
  }

  close(): void {
    this.input.end();
  }
}

/** Polls `tasks/get` until `done` says so (at most 5 s). */
export async function pollUntil(wire: Wire, params: Message, done: (task: Message) => boolean): Promise<Message> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const answer = await wire.request('tasks/get', params);
    if (answer['result'] !== undefined && done(answer['result'])) return answer['result'];
    if (Date.now() > deadline) throw new Error(`task never reached the awaited state: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
