import {
  type Attributes,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { SERVER_VERSION } from "../version.js";

// The API's tracer: a no-op until a tracer provider is registered (startOtlpTracing).
const tracer = trace.getTracer("solserver", SERVER_VERSION);

// What a span is without a provider: it records nothing, and its context is not a valid parent.
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
let providerSeen = false;

/**
 * True once a tracer provider is registered (and from then on). Until then the API's no-op still
 * made a span and a context for every phase of every turn, so `inSpan` skips it.
 */
function spansRecorded(): boolean {
  if (!providerSeen) {
    const provider = trace.getTracerProvider();
    providerSeen =
      !(provider instanceof ProxyTracerProvider) ||
      provider.getDelegateTracer("solserver", SERVER_VERSION) !== undefined;
  }
  return providerSeen;
}

/** Runs `fn` inside a span named `name` (the active span's child); a throw marks the span as an error. */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T> | T,
): Promise<T> {
  if (!spansRecorded()) return fn(NO_SPAN);
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Records `error` on `span` (its code when it is a SolError) and sets the span's status to error. */
export function markFailed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") span.setAttribute("sol.error.code", code);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/** The tracer the server's spans use (the HTTP request span starts from it). */
export function solTracer() {
  return tracer;
}
