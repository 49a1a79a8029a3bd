import {
  ENVELOPE_SCHEMA_NAME,
  envelopeJsonSchema,
  type LlmCallPurpose,
  type LlmResponse,
  type LlmResponseFormat,
} from "@solserver/core";
import type { TraceBuffer } from "./trace-buffer.js";

/** The envelope v1 schema, asked for with the provider's structured-output feature. */
export function envelopeResponseFormat(): LlmResponseFormat {
  return { type: "json_schema", name: ENVELOPE_SCHEMA_NAME, schema: envelopeJsonSchema(), strict: false };
}

/** One trace event per configured fallback the call moved to (from, to, and why). */
export function traceFallbacks(trace: TraceBuffer, purpose: LlmCallPurpose, response: LlmResponse): void {
  for (const fallback of response.fallbacks ?? []) {
    trace.add(
      "provider_fallback",
      "warning",
      `${purpose} call moved from ${fallback.from} to ${fallback.to}`,
      {
        purpose,
        from: fallback.from,
        to: fallback.to,
        reason: fallback.reason,
        code: fallback.code,
        ...(fallback.status === undefined ? {} : { status: fallback.status }),
      },
    );
  }
}
