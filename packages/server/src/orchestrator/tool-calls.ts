import { ToolCall } from "@solserver/core";

/**
 * The tool calls in a provider's raw assistant message, normalised to the ToolCall contract:
 * `tool_calls` entries of type `function` or `custom`, else a legacy `function_call` (one call, id
 * `call_0`). Malformed entries are dropped; a missing id gets a stable one.
 */
export function toolCallsOf(raw: unknown): ToolCall[] {
  const message = raw as { tool_calls?: unknown; function_call?: unknown } | null | undefined;
  const calls = message?.tool_calls;
  if (Array.isArray(calls) && calls.length > 0) {
    const out: ToolCall[] = [];
    calls.forEach((call: unknown, index) => {
      const parsed = normalise(call, index);
      if (parsed !== null) out.push(parsed);
    });
    return out;
  }
  const legacy = message?.function_call;
  if (legacy === undefined || legacy === null) return [];
  const parsed = normalise({ type: "function", function: legacy }, 0);
  return parsed === null ? [] : [parsed];
}

function normalise(call: unknown, index: number): ToolCall | null {
  const entry = call as {
    id?: unknown;
    type?: unknown;
    function?: { name?: unknown; arguments?: unknown };
    custom?: { name?: unknown; input?: unknown };
  } | null;
  const id = typeof entry?.id === "string" && entry.id !== "" ? entry.id : `call_${index}`;
  const type = entry?.type ?? "function";
  const candidate =
    type === "custom"
      ? {
          id,
          type,
          custom: {
            name: entry?.custom?.name,
            input: typeof entry?.custom?.input === "string" ? entry.custom.input : "",
          },
        }
      : {
          id,
          type,
          function: {
            name: entry?.function?.name,
            arguments: typeof entry?.function?.arguments === "string" ? entry.function.arguments : "",
          },
        };
  const parsed = ToolCall.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

/** The name of the tool a call invokes. */
export function toolCallName(call: ToolCall): string {
  return call.type === "custom" ? call.custom.name : call.function.name;
}

/** A call as text: `name(arguments)` for a function, `name: input` for a custom tool. */
export function toolCallText(call: ToolCall): string {
  return call.type === "custom"
    ? `${call.custom.name}: ${call.custom.input}`
    : `${call.function.name}(${call.function.arguments})`;
}

/** A one-line text stand-in for a tool-call-only reply, so the stored thread history stays readable. */
export function describeToolCalls(calls: readonly ToolCall[]): string {
  return calls.map((c) => `[tool call] ${toolCallText(c)}`).join("\n");
}
