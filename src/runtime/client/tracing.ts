/**
 * OpenTelemetry for the client (docs/tracing.md), loaded only when `connect`'s `tracing` asks for
 * it: a CLIENT span per request, child of the app's active span, whose context goes into the
 * request's `_meta` (`traceparent`, `tracestate`) so the server's span joins the app's trace; and
 * a SERVER span for each request the server makes of the client (elicitation, sampling, roots),
 * child of the context that request carries.
 */
import type { JsonObject } from '../api.js';
import { McpError } from '../protocol/errors.js';
import { isObject } from '../protocol/jsonrpc.js';
import { PROMPTS_GET, RESOURCES_READ, TOOLS_CALL } from '../protocol/methods.js';
import type { TracingOptions } from '../protocol/server-options.js';
import {
  DEFAULT_SCOPE,
  SPAN_KIND_CLIENT,
  SPAN_KIND_SERVER,
  SPAN_STATUS_ERROR,
  loadOtelApi,
  remoteParent,
  spanFailed,
  withTraceMeta,
  type Attributes,
  type Histogram,
  type OtelApi,
  type OtelSpan,
} from '../protocol/trace-context.js';

export async function startClientTracing(options: TracingOptions | true): Promise<ClientTracing> {
  const api = await loadOtelApi(options);
  return new ClientTracing(api, options === true ? undefined : options.scope);
}

/** The bucket boundaries the semantic conventions advise for `mcp.client.operation.duration`, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

export class ClientTracing {
  private readonly api: OtelApi;
  private readonly tracer: ReturnType<OtelApi['trace']['getTracer']>;
  private readonly duration: Histogram;

  constructor(api: OtelApi, scope = DEFAULT_SCOPE) {
    this.api = api;
    this.tracer = api.trace.getTracer(scope);
    this.duration = api.metrics.getMeter(scope).createHistogram('mcp.client.operation.duration', {
      description: 'MCP request duration as observed on the client, from sending to the answer',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
  }

  /** One request of ours on the wire (each 2026-07-28 input round is one), in a CLIENT span. */
  request(
    method: string,
    params: JsonObject,
    protocolVersion: string | undefined,
    send: (params: JsonObject) => Promise<JsonObject>,
  ): Promise<JsonObject> {
    const metric: Attributes = { 'mcp.method.name': method, ...targetOf(method, params) };
    if (protocolVersion !== undefined) metric['mcp.protocol.version'] = protocolVersion;
    const name = metric['gen_ai.tool.name'] ?? metric['gen_ai.prompt.name'];
    const attributes: Attributes = { ...metric };
    if (method === RESOURCES_READ && typeof params['uri'] === 'string')
      attributes['mcp.resource.uri'] = params['uri'];
    if (method === TOOLS_CALL) attributes['gen_ai.operation.name'] = 'execute_tool';
    // A `traceparent` the call set itself (call options' `_meta`) names the parent; else the app's active span.
    const meta = isObject(params['_meta']) ? params['_meta'] : undefined;
    const parent =
      remoteParent(this.api, meta?.['traceparent'], meta?.['tracestate']) ??
      this.api.context.active();
    const span = this.tracer.startSpan(
      name === undefined ? method : `${method} ${name}`,
      { kind: SPAN_KIND_CLIENT, attributes },
      parent,
    );
    const started = performance.now();
    const ended = (error: unknown, result: JsonObject | undefined): void => {
      if (error instanceof McpError) {
        metric['rpc.response.status_code'] = String(error.code);
        metric['error.type'] = String(error.code);
        span.setStatus({ code: SPAN_STATUS_ERROR, message: error.message });
      } else if (error !== undefined) metric['error.type'] = spanFailed(span, error);
      else if (result?.['isError'] === true) {
        metric['error.type'] = 'tool_error';
        span.setStatus({ code: SPAN_STATUS_ERROR });
      }
      for (const key of ['rpc.response.status_code', 'error.type']) {
        const value = metric[key];
        if (value !== undefined) span.setAttribute(key, value);
      }
      span.end();
      this.duration.record((performance.now() - started) / 1000, metric);
    };
    return send(withTraceMeta(params, span)).then(
      (result) => {
        ended(undefined, result);
        return result;
      },
      (error: unknown) => {
        ended(error ?? new Error('rejected'), undefined);
        throw error;
      },
    );
  }

  /** A request of the server's answered by the app's handler, in a SERVER span that the handler runs in. */
  serve(
    method: string,
    params: JsonObject,
    answer: () => Promise<JsonObject>,
  ): Promise<JsonObject> {
    const meta = isObject(params['_meta']) ? params['_meta'] : undefined;
    const parent =
      remoteParent(this.api, meta?.['traceparent'], meta?.['tracestate']) ??
      this.api.context.active();
    const span: OtelSpan = this.tracer.startSpan(
      method,
      { kind: SPAN_KIND_SERVER, attributes: { 'mcp.method.name': method } },
      parent,
    );
    return this.api.context.with(this.api.trace.setSpan(parent, span), answer).then(
      (result) => {
        span.end();
        return result;
      },
      (error: unknown) => {
        spanFailed(span, error);
        span.end();
        throw error;
      },
    );
  }
}

function targetOf(method: string, params: JsonObject): Attributes {
  const name = params['name'];
  if (typeof name !== 'string') return {};
  if (method === TOOLS_CALL) return { 'gen_ai.tool.name': name };
  if (method === PROMPTS_GET) return { 'gen_ai.prompt.name': name };
  return {};
}
