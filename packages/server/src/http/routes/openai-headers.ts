import type { ChatResponse } from "@solserver/core";

/** JSON with every non-ASCII character escaped: a header value must stay ASCII. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The response headers both facades send: the turn's mode, breakpoint, trace, thread and request,
 * and (api.md §3) `x-sol-actions` when the reply proposed actions, so any OpenAI client can approve
 * them with `/v1/actions/execute`.
 */
export function facadeHeaders(response: ChatResponse, replayed: boolean): Record<string, string> {
  const actions = response.actions.map((a) => ({
    action_id: a.action_id,
    action_kind: a.action_kind,
    action_label: a.action_label,
  }));
  return {
    "x-sol-mode": response.modeDecision.modeLabel,
    "x-sol-breakpoint": response.breakpoint.decision,
    "x-sol-trace-id": response.trace.traceRunId,
    "x-sol-thread-id": response.threadId,
    "x-request-id": response.requestId,
    ...(actions.length > 0 ? { "x-sol-actions": asciiJson(actions) } : {}),
    ...(replayed ? { "idempotent-replayed": "true" } : {}),
  };
}

/** The OpenAPI description of the facade headers (route config `responseHeaders`). */
export const FACADE_RESPONSE_HEADERS = {
  "X-Sol-Mode": "The mode the turn ran in.",
  "X-Sol-Breakpoint": "The breakpoint decision: must, should or skip.",
  "X-Sol-Trace-Id": "The turn's trace run (GET /v1/traces/{traceRunId}).",
  "X-Sol-Thread-Id": "The thread the turn joined (x-sol-thread-id, or the key's default thread).",
  "X-Request-Id": "The turn's request id: the idempotency-key, or one the server made.",
  "X-Sol-Actions":
    "Present when the reply proposed actions: a JSON array of { action_id, action_kind, action_label } (approve with POST /v1/actions/execute).",
  "Idempotent-Replayed": "`true` when this is the stored answer to an earlier identical request.",
} as const;
