import { ToolCall } from "@solserver/core";

/**
 * The function calls in a provider's raw assistant message (`raw.tool_calls`), normalised to the
 * ToolCall contract. Entries that are not function calls are dropped; a missing id gets a stable one.
 */
export function toolCallsOf(raw: unknown): ToolCall[] {
  const calls = (raw as { tool_calls?: unknown } | null | undefined)?.tool_calls;
  if (!Array.isArray(calls)) return [];
  const out: ToolCall[] = [];
  calls.forEach((call: unknown, index) => {
    const entry = call as {
      id?: unknown;
      type?: unknown;
      function?: { name?: unknown; arguments?: unknown };
    };
    if (entry?.type !== undefined && entry.type !== "function") return;
    const parsed = ToolCall.safeParse({
      id: typeof entry?.id === "string" && entry.id !== "" ? entry.id : `call_${index}`,
      type: "function",
      function: {
        name: entry?.function?.name,
        arguments: typeof entry?.function?.arguments === "string" ? entry.function.arguments : "",
      },
    });
    if (parsed.success) out.push(parsed.data);
  });
  return out;
}

/** A one-line text stand-in for a tool-call-only reply, so the stored thread history stays readable. */
export function describeToolCalls(calls: readonly ToolCall[]): string {
  return calls.map((c) => `[tool call] ${c.function.name}(${c.function.arguments})`).join("\n");
}
