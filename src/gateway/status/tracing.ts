/**
 * G9 — OpenTelemetry traces through `@opentelemetry/api`, an optional peer: loaded with a dynamic
 * import, so without it installed (or without `tracing` asked for) the gateway pays nothing.
 * Spans go to whatever tracer provider the process registered (an OTel SDK with an OTLP exporter,
 * see the README); with the API but no SDK they are no-ops.
 *
 * W3C trace context is read and written here, not by the global propagator: a client's
 * `_meta.traceparent` / `tracestate` (the 2026-07-28 revision's carrier) or its HTTP headers
 * continue the client's trace, and each upstream call carries its own span's context on in
 * `_meta`, so a server that reads it continues the same trace. Attributes never carry
 * arguments or results.
 */
type OtelApi = typeof import('@opentelemetry/api');
type OtelSpan = import('@opentelemetry/api').Span;

export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

export interface TraceSpan {
  /** The W3C context of this span, to pass on (`_meta` of an upstream request). */
  carrier(): TraceCarrier;
  setAttribute(key: string, value: string | number | boolean): void;
  /** End it; an error message marks the span failed. */
  end(error?: string): void;
}

export interface GatewayTracer {
  /** A client request (SERVER span), continuing the carrier's trace when it has a valid `traceparent`. */
  startRequest(name: string, attributes: Record<string, string>, carrier: TraceCarrier | undefined): TraceSpan;
  /** A child: `client` for an upstream call, `internal` for the search. */
  startChild(
    parent: TraceSpan | undefined,
    name: string,
    kind: 'client' | 'internal',
    attributes: Record<string, string | number>,
  ): TraceSpan;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** `@opentelemetry/api`'s tracer, or undefined when the package is not installed. */
export async function loadTracer(name = 'toolsearch', version?: string): Promise<GatewayTracer | undefined> {
  let api: OtelApi;
  try {
    api = await import('@opentelemetry/api');
  } catch {
    return undefined;
  }
  return otelTracer(api, name, version);
}

export function otelTracer(api: OtelApi, name: string, version?: string): GatewayTracer {
  // Looked up per span: a provider registered after the gateway started is still used.
  const tracer = () => api.trace.getTracer(name, version);
  const wrap = (span: OtelSpan): TraceSpan & { readonly span: OtelSpan } => ({
    span,
    carrier: () => {
      const context = span.spanContext();
      if (!api.isSpanContextValid(context)) return {};
      const flags = context.traceFlags.toString(16).padStart(2, '0');
      const state = context.traceState?.serialize();
      return {
        traceparent: `00-${context.traceId}-${context.spanId}-${flags}`,
        ...(state !== undefined && state !== '' && { tracestate: state }),
      };
    },
    setAttribute: (key, value) => void span.setAttribute(key, value),
    end: (error) => {
      if (error !== undefined) span.setStatus({ code: api.SpanStatusCode.ERROR, message: error });
      span.end();
    },
  });
  const remoteContext = (carrier: TraceCarrier | undefined) => {
    const match = TRACEPARENT.exec(carrier?.traceparent?.trim().toLowerCase() ?? '');
    if (!match || match[1] === 'ff') return api.ROOT_CONTEXT;
    const spanContext = {
      traceId: match[2]!,
      spanId: match[3]!,
      traceFlags: Number.parseInt(match[4]!, 16) & 1,
      isRemote: true,
      ...(carrier?.tracestate !== undefined && { traceState: api.createTraceState(carrier.tracestate) }),
    };
    if (!api.isSpanContextValid(spanContext)) return api.ROOT_CONTEXT;
    return api.trace.setSpanContext(api.ROOT_CONTEXT, spanContext);
  };
  return {
    startRequest: (spanName, attributes, carrier) =>
      wrap(tracer().startSpan(spanName, { kind: api.SpanKind.SERVER, attributes }, remoteContext(carrier))),
    startChild: (parent, spanName, kind, attributes) => {
      const parentSpan = (parent as { span?: OtelSpan } | undefined)?.span;
      const context = parentSpan ? api.trace.setSpan(api.ROOT_CONTEXT, parentSpan) : api.context.active();
      const spanKind = kind === 'client' ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL;
      return wrap(tracer().startSpan(spanName, { kind: spanKind, attributes }, context));
    },
  };
}

/** The carrier in a request's `_meta`, else its HTTP headers. */
export function traceCarrier(
  meta: Record<string, unknown> | undefined,
  headers: Record<string, string | string[] | undefined> | undefined,
): TraceCarrier | undefined {
  const pick = (value: unknown) => (typeof value === 'string' ? value : Array.isArray(value) ? value[0] : undefined);
  const traceparent = pick(meta?.['traceparent']) ?? pick(headers?.['traceparent']);
  if (traceparent === undefined) return undefined;
  const tracestate =
    pick(meta?.['traceparent']) !== undefined ? pick(meta?.['tracestate']) : pick(headers?.['tracestate']);
  return { traceparent, ...(tracestate !== undefined && { tracestate }) };
}
