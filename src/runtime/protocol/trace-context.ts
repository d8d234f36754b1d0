/**
 * What the server's and the client's tracing share (docs/tracing.md): the part of
 * `@opentelemetry/api` they call, typed here so the runtime compiles without the package (it is
 * loaded only when tracing is on, `loadOtelApi`), and W3C trace context as MCP carries it in a
 * request's `_meta` (`traceparent`, `tracestate`) and as HTTP carries it in headers.
 */
import type { JsonObject } from '../api.js';
import type { TracingOptions } from './server-options.js';

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;

export interface OtelSpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
  traceState?: { serialize(): string };
}

export interface OtelSpan {
  spanContext(): OtelSpanContext;
  setAttribute(key: string, value: AttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: unknown): void;
  end(): void;
}

/** An OpenTelemetry context: opaque here, only handed back to the API. */
export type OtelContext = object;

interface Tracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: Attributes },
    context?: OtelContext,
  ): OtelSpan;
}

export interface Instrument {
  add(value: number, attributes?: Attributes): void;
}

export interface Histogram {
  record(value: number, attributes?: Attributes): void;
}

interface ObservableResult {
  observe(value: number, attributes?: Attributes): void;
}

interface Meter {
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: object },
  ): Histogram;
  createCounter(name: string, options?: { description?: string; unit?: string }): Instrument;
  createUpDownCounter(name: string, options?: { description?: string; unit?: string }): Instrument;
  createObservableUpDownCounter(
    name: string,
    options?: { description?: string; unit?: string },
  ): { addCallback(callback: (result: ObservableResult) => void): void };
}

/** The members of `@opentelemetry/api` the runtime uses. */
export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): Tracer;
    setSpan(context: OtelContext, span: OtelSpan): OtelContext;
    wrapSpanContext(spanContext: OtelSpanContext): OtelSpan;
    getSpanContext(context: OtelContext): OtelSpanContext | undefined;
  };
  context: {
    active(): OtelContext;
    with<T>(context: OtelContext, run: () => T): T;
  };
  metrics: { getMeter(name: string, version?: string): Meter };
  ROOT_CONTEXT: OtelContext;
  createTraceState(raw?: string): { serialize(): string };
}

export const SPAN_KIND_SERVER = 1;
export const SPAN_KIND_CLIENT = 2;
export const SPAN_STATUS_ERROR = 2;

/** The tracer's and meter's instrumentation scope unless the options name another. */
export const DEFAULT_SCOPE = 'mcp-gen';

/**
 * `@opentelemetry/api`: the one the options hand over, else imported from the app's
 * node_modules. The name is in a variable so TypeScript does not look for the package.
 */
export async function loadOtelApi(options: TracingOptions | true): Promise<OtelApi> {
  if (options !== true && options.api !== undefined) return options.api as OtelApi;
  const name = '@opentelemetry/api';
  try {
    // The comments keep bundlers of a --browser client from warning about (or resolving) it.
    return (await import(/* @vite-ignore */ /* webpackIgnore: true */ name)) as OtelApi;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Tracing is on but @opentelemetry/api could not be loaded (npm install @opentelemetry/api): ${why}`,
    );
  }
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * The remote parent a `traceparent` (and `tracestate`) names, as a context; undefined when the
 * header is absent or malformed (W3C Trace Context: version ff and all-zero ids are invalid;
 * version 00 has exactly four fields, later versions may add more).
 */
export function remoteParent(
  api: OtelApi,
  traceparent: unknown,
  tracestate: unknown,
): OtelContext | undefined {
  if (typeof traceparent !== 'string' || traceparent.length > 512) return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as string[];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  const spanContext: OtelSpanContext = {
    traceId: traceId as string,
    spanId: spanId as string,
    traceFlags: parseInt(flags as string, 16) & 1,
    isRemote: true,
  };
  if (typeof tracestate === 'string' && tracestate !== '' && tracestate.length <= 512)
    spanContext.traceState = api.createTraceState(tracestate);
  return api.trace.setSpan(api.ROOT_CONTEXT, api.trace.wrapSpanContext(spanContext));
}

/** `params` with `_meta.traceparent` (and `tracestate`) naming `span`: a copy, `params` is left alone. */
export function withTraceMeta(params: JsonObject | undefined, span: OtelSpan): JsonObject {
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  const existing = params?.['_meta'];
  const meta: JsonObject =
    typeof existing === 'object' && existing !== null && !Array.isArray(existing)
      ? { ...(existing as JsonObject) }
      : {};
  meta['traceparent'] = `00-${traceId}-${spanId}-${(traceFlags & 1) === 1 ? '01' : '00'}`;
  const state = traceState?.serialize() ?? '';
  if (state !== '') meta['tracestate'] = state;
  else delete meta['tracestate'];
  return { ...params, _meta: meta };
}

/** Marks `span` failed with `error` (an exception the code threw) and returns the error's type. */
export function spanFailed(span: OtelSpan, error: unknown): string {
  const type =
    error instanceof Error
      ? error.constructor.name === ''
        ? 'Error'
        : error.constructor.name
      : 'Error';
  span.recordException(error instanceof Error ? error : new Error(String(error)));
  span.setStatus({
    code: SPAN_STATUS_ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
  span.setAttribute('error.type', type);
  return type;
}
