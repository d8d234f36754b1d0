/**
 * The OpenTelemetry SDK as an operator would set it up, with in-memory exporters: every span the
 * runtime ends and every metric it records can be read back by the tracing tests.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

export const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });

/** Registers the providers and the context manager globally, as `NodeSDK.start()` would. */
export function installSdk(): void {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
}

/** The data points of one metric as collected now, each with its attributes. */
export async function metricPoints(name: string): Promise<DataPoint<number | Histogram>[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.filter((m) => m.descriptor.name === name).flatMap((m) => m.dataPoints as DataPoint<number | Histogram>[]));
}

/** The finished spans, each with its parent's span id ('' for a root). */
export function finished(): { name: string; kind: number; traceId: string; spanId: string; parentId: string; attributes: ReadableSpan['attributes']; status: number; ended: boolean }[] {
  return spans.getFinishedSpans().map((span) => ({
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentId: span.parentSpanContext?.spanId ?? '',
    attributes: span.attributes,
    status: span.status.code,
    ended: span.ended,
  }));
}
