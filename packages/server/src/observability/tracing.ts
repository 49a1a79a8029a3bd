import { type Attributes, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import { SERVER_VERSION } from "../version.js";

// The API's tracer: a no-op until a tracer provider is registered (startOtlpTracing), so spans cost
// next to nothing when no exporter is configured.
const tracer = trace.getTracer("solserver", SERVER_VERSION);

/** Runs `fn` inside a span named `name` (the active span's child); a throw marks the span as an error. */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T> | T,
): Promise<T> {
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
