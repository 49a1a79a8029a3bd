import type { LlmResponse, LlmUsage } from "@solserver/core";

/** Identity of the adapter written into every response. */
export interface ResponseOrigin {
  readonly provider: string;
  readonly model: string;
}

export type ParseOutcome =
  | { readonly ok: true; readonly value: LlmResponse }
  | { readonly ok: false; readonly message: string };

/** Parses a non-streamed Chat Completions body; the content stays text (envelope parsing is the caller's job). */
export function parseCompletion(bodyText: string, origin: ResponseOrigin): ParseOutcome {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return { ok: false, message: "the upstream answered with a body that is not JSON" };
  }
  const root = asRecord(json);
  const choice = asRecord(Array.isArray(root?.choices) ? root.choices[0] : undefined);
  const message = asRecord(choice?.message);
  if (!message) return { ok: false, message: "the upstream answer has no choices[0].message" };
  const usage = readUsage(root?.usage);
  const finishReason = typeof choice?.finish_reason === "string" ? choice.finish_reason : undefined;
  return {
    ok: true,
    value: {
      text: contentText(message.content),
      provider: origin.provider,
      model: typeof root?.model === "string" && root.model !== "" ? root.model : origin.model,
      offline: false,
      ...(usage === undefined ? {} : { usage }),
      ...(finishReason === undefined ? {} : { finishReason }),
      raw: message,
    },
  };
}

/** The upstream's error message from an error body (`{error:{message}}`), else a short excerpt. */
export function upstreamErrorMessage(bodyText: string): string {
  try {
    const root = asRecord(JSON.parse(bodyText));
    const error = root?.error;
    const message = typeof error === "string" ? error : asRecord(error)?.message;
    if (typeof message === "string" && message !== "") return message.slice(0, 200);
  } catch {
    // Not JSON: fall through to the raw excerpt.
  }
  return bodyText.trim().slice(0, 200);
}

/** Maps OpenAI `usage` to LlmUsage, or undefined when it carries no token counts. */
export function readUsage(value: unknown): LlmUsage | undefined {
  const usage = asRecord(value);
  const input = usage?.prompt_tokens;
  const output = usage?.completion_tokens;
  const out = {
    ...(typeof input === "number" ? { inputTokens: input } : {}),
    ...(typeof output === "number" ? { outputTokens: output } : {}),
  };
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Message content as text: a string, or the text parts of a content array; null (tool calls only) is "". */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      const text = asRecord(part)?.text;
      return typeof text === "string" ? text : "";
    })
    .join("");
}

/** Narrows to a plain object. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
