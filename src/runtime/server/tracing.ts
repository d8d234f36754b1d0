/**
 * OpenTelemetry for the server (docs/tracing.md), loaded only when `ServerOptions.tracing` asks for
 * it: a SERVER span per request (traced-outbound.ts); child spans for the handler, the output check
 * and task runs; trace context in the server's own requests to the client; and the metrics. With tracing off this module is never
 * loaded and `ServerCore.tracing` stays undefined: each hook is one property check.
 */
import type { JsonObject } from '../api.js';
import type { RequestId } from '../protocol/jsonrpc.js';
import type { TracingOptions } from '../protocol/server-options.js';
import {
  DEFAULT_SCOPE,
  SPAN_KIND_CLIENT,
  SPAN_STATUS_ERROR,
  loadOtelApi,
  spanFailed,
  withTraceMeta,
  type Histogram,
  type Instrument,
  type OtelApi,
  type OtelContext,
  type OtelSpan,
} from '../protocol/trace-context.js';
import type { TaskRun } from '../features/tasks/task-run.js';
import type { Context } from './context.js';
import type { Outbound } from './outbound.js';
import type { ServerCore } from './server.js';
import type { Session } from './session.js';
import { TracedOutbound, traceOf } from './traced-outbound.js';

/** Loads the API and turns tracing on for `core` (createServer waits for it before serving). */
export async function startTracing(
  core: ServerCore,
  options: TracingOptions | true,
): Promise<void> {
  const api = await loadOtelApi(options);
  core.tracing = new ServerTracing(core, api, options === true ? undefined : options.scope);
}

/** The bucket boundaries the semantic conventions advise for `mcp.server.operation.duration`, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** The servers of this process with tracing on, whose tasks `mcp_gen.server.tasks` counts. */
const tracedCores = new Set<ServerCore>();
/** The statuses of a task still running; the terminal ones are counted as they happen. */
const LIVE_STATUSES = ['working', 'input_required'];

export class ServerTracing {
  readonly api: OtelApi;
  readonly tracer: ReturnType<OtelApi['trace']['getTracer']>;
  readonly duration: Histogram;
  readonly activeRequests: Instrument;
  private readonly taskEnds: Instrument;
  /** Each task run's span, ended once the task is (or the run ends without becoming one). */
  private readonly taskSpans = new WeakMap<TaskRun, OtelSpan>();

  constructor(core: ServerCore, api: OtelApi, scope = DEFAULT_SCOPE) {
    this.api = api;
    this.tracer = api.trace.getTracer(scope);
    const meter = api.metrics.getMeter(scope);
    this.duration = meter.createHistogram('mcp.server.operation.duration', {
      description: 'MCP request duration as observed on the server, from arrival to answer',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.activeRequests = meter.createUpDownCounter('mcp_gen.server.active_requests', {
      description: 'Requests received and not yet answered',
      unit: '{request}',
    });
    this.taskEnds = meter.createCounter('mcp_gen.server.task.ends', {
      description: 'Tasks that reached a terminal status in this process, by status',
      unit: '{task}',
    });
    // One observer per process, over every traced server in it: observations of the same
    // attributes from several callbacks would overwrite each other.
    tracedCores.add(core);
    if (tracedCores.size > 1) return;
    meter
      .createObservableUpDownCounter('mcp_gen.server.tasks', {
        description: 'Tasks whose handlers run in this process, by status',
        unit: '{task}',
      })
      .addCallback((result) => {
        const counts = new Map<string, number>(LIVE_STATUSES.map((status) => [status, 0]));
        for (const traced of tracedCores)
          for (const run of traced.taskRuns.values()) {
            const status = run.record.status;
            counts.set(status, (counts.get(status) ?? 0) + 1);
          }
        for (const [status, count] of counts) result.observe(count, { 'mcp.task.status': status });
      });
  }

  /** The request's answer channel, wrapped: the span starts now and ends with the answer. */
  request(
    session: Session,
    method: string,
    id: RequestId,
    message: JsonObject,
    out: Outbound,
  ): Outbound {
    return new TracedOutbound(this, session, method, id, message, out);
  }

  /**
   * Runs a handler in a child span of its request's (or its task's), active while it runs so the
   * handler's own spans and its requests to the client nest under it.
   */
  runHandler<T>(context: Context, name: string, run: () => T): T {
    const parent = this.parentOf(context);
    const span = this.tracer.startSpan(`handler ${name}`, {}, parent);
    const active = this.api.trace.setSpan(parent, span);
    const end = this.child(context, span);
    // Its requests to the client nest under the handler; the output check, after it, does not.
    const previous = context.trace;
    context.trace = active;
    const ended = (error?: unknown): void => {
      if (error !== undefined) spanFailed(span, error);
      context.trace = previous;
      end();
      this.handlerEnded(context);
    };
    let value: T;
    try {
      value = this.api.context.with(active, run);
    } catch (error) {
      ended(error ?? new Error('thrown'));
      throw error;
    }
    const then = (value as { then?: unknown } | null)?.then;
    if (typeof then !== 'function') ended();
    else
      (value as PromiseLike<unknown>).then(
        () => ended(),
        (error: unknown) => ended(error ?? new Error('rejected')),
      );
    return value;
  }

  /** The check of a tool's result against its contract (output schema, JSON only), as a child span. */
  checkOutput<T>(context: Context, tool: string, run: () => T): T {
    const span = this.tracer.startSpan(`validate_output ${tool}`, {}, this.parentOf(context));
    try {
      return run();
    } finally {
      span.end();
    }
  }

  /** A server→client request (elicitation, sampling, roots): a CLIENT span whose context rides in `_meta`. */
  askClient(
    context: Context,
    method: string,
    params: JsonObject | undefined,
    send: (params: JsonObject) => Promise<JsonObject>,
  ): Promise<JsonObject> {
    const span = this.tracer.startSpan(
      method,
      { kind: SPAN_KIND_CLIENT, attributes: { 'mcp.method.name': method } },
      this.parentOf(context),
    );
    const end = this.child(context, span);
    return send(withTraceMeta(params, span)).then(
      (result) => {
        end();
        return result;
      },
      (error: unknown) => {
        spanFailed(span, error);
        end();
        throw error;
      },
    );
  }

  /** A task run starts: its span, child of the tools/call request's. */
  taskStarted(run: TaskRun, tool: string): void {
    const parent = traceOf(run.requestOut) ?? this.api.context.active();
    const span = this.tracer.startSpan(
      `task ${tool}`,
      { attributes: { 'gen_ai.tool.name': tool, 'mcp.task.id': run.record.taskId } },
      parent,
    );
    this.taskSpans.set(run, span);
    run.context.trace = this.api.trace.setSpan(parent, span);
  }

  /** A task's new status: a terminal one ends its span and is counted. */
  taskChanged(run: TaskRun, status: string): void {
    if (status !== 'completed' && status !== 'failed' && status !== 'cancelled') return;
    this.taskEnds.add(1, { 'mcp.task.status': status });
    const span = this.taskSpans.get(run);
    if (span === undefined) return;
    this.taskSpans.delete(run);
    span.setAttribute('mcp.task.status', status);
    if (status === 'failed') span.setStatus({ code: SPAN_STATUS_ERROR });
    span.end();
  }

  /**
   * Ties a child span to the request it belongs to and returns what ends it. A request answered
   * while the span is still open (a 2026-07-28 handler parked on an input request, which never
   * resumes) ends it then, marked `mcp_gen.parked`.
   */
  private child(context: Context, span: OtelSpan): () => void {
    const request = context.out instanceof TracedOutbound ? context.out : undefined;
    if (request === undefined) return () => span.end();
    request.open.add(span);
    return () => {
      if (request.open.delete(span)) span.end();
    };
  }

  private parentOf(context: Context): OtelContext {
    return (
      (context.trace as OtelContext | undefined) ??
      traceOf(context.out) ??
      this.api.context.active()
    );
  }

  /** A 2026-07-28 run that ends before it became a task never will: its span ends with the handler. */
  private handlerEnded(context: Context): void {
    const run = context.task;
    if (run === undefined || run.promoted) return;
    const span = this.taskSpans.get(run);
    this.taskSpans.delete(run);
    span?.end();
  }
}
