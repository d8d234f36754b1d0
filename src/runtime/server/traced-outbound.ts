/**
 * One traced request's answer channel (server/tracing.ts): its SERVER span starts when the request
 * arrives, named and described as OpenTelemetry's semantic conventions for MCP say, and ends with
 * the answer, whose outcome it reads from the answer's text; the duration and in-flight metrics
 * are recorded with it.
 */
import type { JsonObject } from '../api.js';
import { idJson, isObject, type RequestId } from '../protocol/jsonrpc.js';
import { PROMPTS_GET, RESOURCES_READ, TOOLS_CALL } from '../protocol/methods.js';
import {
  SPAN_KIND_SERVER,
  SPAN_STATUS_ERROR,
  remoteParent,
  type Attributes,
  type OtelContext,
  type OtelSpan,
} from '../protocol/trace-context.js';
import type { Outbound } from './outbound.js';
import type { Session } from './session.js';
import type { ServerTracing } from './tracing.js';

/** The context of the request span behind `out`, when it is a traced request's. */
export function traceOf(out: Outbound): OtelContext | undefined {
  return out instanceof TracedOutbound ? out.trace : undefined;
}

/** What a request is about: the tool, prompt or resource its params name. */
function targetAttributes(method: string, params: JsonObject | undefined): Attributes {
  const attributes: Attributes = {};
  if (params === undefined) return attributes;
  if (method === TOOLS_CALL && typeof params['name'] === 'string') {
    attributes['gen_ai.tool.name'] = params['name'];
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === PROMPTS_GET && typeof params['name'] === 'string') {
    attributes['gen_ai.prompt.name'] = params['name'];
  } else if (method === RESOURCES_READ && typeof params['uri'] === 'string') {
    attributes['mcp.resource.uri'] = params['uri'];
  }
  return attributes;
}

/** One traced request's answer channel: the span and the metrics end with its answer. */
export class TracedOutbound implements Outbound {
  /** The channel beneath (session.ts `cancelOutbound` looks through it). */
  readonly parent: Outbound;
  /** The OpenTelemetry context holding this request's span. */
  readonly trace: OtelContext;
  /** Its child spans still open (`ServerTracing.child`). */
  readonly open = new Set<OtelSpan>();
  private readonly tracing: ServerTracing;
  private readonly span: OtelSpan;
  private readonly idText: string;
  private readonly started = performance.now();
  /** What the duration metric is recorded with: few values each, never an id. */
  private readonly metricAttributes: Attributes;
  private ended = false;

  constructor(
    tracing: ServerTracing,
    session: Session,
    method: string,
    id: RequestId,
    message: JsonObject,
    out: Outbound,
  ) {
    this.tracing = tracing;
    this.parent = out;
    this.idText = idJson(id);
    const api = tracing.api;
    const params = isObject(message['params']) ? message['params'] : undefined;
    // Narrowed step by step: TypeScript 5.0 does not narrow `params` through an optional chain.
    const metaValue = params === undefined ? undefined : params['_meta'];
    const meta = isObject(metaValue) ? (metaValue as JsonObject) : undefined;
    const parent =
      remoteParent(api, meta?.['traceparent'], meta?.['tracestate']) ??
      remoteParent(api, out.traceHeaders?.['traceparent'], out.traceHeaders?.['tracestate']) ??
      api.context.active();
    const target = targetAttributes(method, params);
    const name = target['gen_ai.tool.name'] ?? target['gen_ai.prompt.name'];
    this.metricAttributes = { 'mcp.method.name': method };
    for (const key of ['gen_ai.tool.name', 'gen_ai.prompt.name']) {
      const value = target[key];
      if (value !== undefined) this.metricAttributes[key] = value;
    }
    if (session.protocolVersion !== '')
      this.metricAttributes['mcp.protocol.version'] = session.protocolVersion;
    const attributes: Attributes = {
      ...target,
      ...this.metricAttributes,
      'jsonrpc.request.id': typeof id === 'string' ? id : String(id),
      'mcp_gen.stateless': session.stateless,
    };
    if (session.id !== undefined) attributes['mcp.session.id'] = session.id;
    this.span = tracing.tracer.startSpan(
      name === undefined ? method : `${method} ${name}`,
      { kind: SPAN_KIND_SERVER, attributes },
      parent,
    );
    this.trace = api.trace.setSpan(parent, this.span);
    tracing.activeRequests.add(1, { 'mcp.method.name': method });
  }

  get canEmit(): boolean {
    return this.parent.canEmit;
  }

  get auth(): Outbound['auth'] {
    return this.parent.auth;
  }

  respond(text: string): void {
    this.end(text);
    this.parent.respond(text);
  }

  abandon(): void {
    this.end(undefined);
    this.parent.abandon();
  }

  emit(text: string): void {
    this.parent.emit(text);
  }

  closeStream(retryMs: number): void {
    this.parent.closeStream?.(retryMs);
  }

  /** The outcome from the answer's text (undefined: cancelled, no answer), on the span and the metrics. */
  private end(text: string | undefined): void {
    if (this.ended) return;
    this.ended = true;
    const seconds = (performance.now() - this.started) / 1000;
    const metric = { ...this.metricAttributes };
    let outcome = 'ok';
    const errorAt = 22 + this.idText.length;
    if (text === undefined) outcome = 'cancelled';
    else if (text.startsWith(',"error":{"code":', errorAt)) {
      outcome = 'error';
      const code = String(parseInt(text.slice(errorAt + 17), 10));
      metric['rpc.response.status_code'] = code;
      metric['error.type'] = code;
      this.span.setStatus({ code: SPAN_STATUS_ERROR, message: errorText(text) });
    } else if (text.includes('"isError":true') && isToolError(text)) {
      outcome = 'tool_error';
      metric['error.type'] = 'tool_error';
      this.span.setStatus({ code: SPAN_STATUS_ERROR });
    }
    for (const key of ['rpc.response.status_code', 'error.type']) {
      const value = metric[key];
      if (value !== undefined) this.span.setAttribute(key, value);
    }
    this.span.setAttribute('mcp_gen.outcome', outcome);
    for (const child of this.open) {
      child.setAttribute('mcp_gen.parked', true);
      child.end();
    }
    this.open.clear();
    this.span.end();
    this.tracing.duration.record(seconds, metric);
    this.tracing.activeRequests.add(-1, {
      'mcp.method.name': this.metricAttributes['mcp.method.name'] as string,
    });
  }
}

function isToolError(text: string): boolean {
  const result = (JSON.parse(text) as JsonObject)['result'];
  return isObject(result) && result['isError'] === true;
}

function errorText(text: string): string {
  const error = (JSON.parse(text) as JsonObject)['error'];
  return isObject(error) && typeof error['message'] === 'string' ? error['message'] : 'error';
}
