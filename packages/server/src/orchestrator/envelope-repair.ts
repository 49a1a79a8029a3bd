import { ASSISTANT_TEXT_ALIASES, type ParsedModelOutput, parseModelOutput } from "@solserver/core";
import { truncatedEnvelopeText } from "./truncated-envelope.js";

/** How a reply that was not a valid envelope was repaired; absent when none was needed or possible. */
export type EnvelopeRepair = "salvaged_meta" | "alias_key" | "truncated";

/** The parsed reply and, when it took one, the repair that made it an envelope. */
export interface ReadEnvelope extends ParsedModelOutput {
  readonly repair?: EnvelopeRepair;
}

const META_KEYS = ["shape", "affect_signal", "signals", "action_needed"] as const;

/**
 * The reply's envelope, repaired when it can be (api.md §4): JSON with prose around it and code
 * fences are read by parseModelOutput; here an object whose meta parts do not validate keeps its text
 * and valid parts, an object that names its text with another key (`text`, `response`, `answer`...)
 * or puts the meta keys at the top level is rebuilt, and an envelope cut off before its end keeps the
 * text it reached (`cutAtLimit`: the provider stopped at the token limit, so even an envelope cut
 * before its text began is one). Only a reply none of these apply to is a format violation.
 */
export function readEnvelope(text: string, cutAtLimit = false): ReadEnvelope {
  const parsed = parseModelOutput(text);
  if (!parsed.formatViolation) return parsed;
  if (parsed.parse === "salvaged") return { ...parsed, formatViolation: false, repair: "salvaged_meta" };
  const aliased = fromAliasKeys(text);
  if (aliased !== null) return { ...aliased, repair: "alias_key" };
  const body = withoutFence(text);
  const partial = truncatedEnvelopeText(body);
  // A cut before the text began gives "": no reply yet, which is more honest than raw JSON.
  if (partial !== null && (partial !== "" || cutAtLimit)) {
    return {
      envelope: { assistant_text: partial },
      formatViolation: false,
      parse: "truncated",
      repair: "truncated",
    };
  }
  return parsed;
}

function withoutFence(text: string): string {
  return text.trim().replace(/^```[a-zA-Z]*[ \t]*\r?\n/, "");
}

function fromAliasKeys(text: string): ParsedModelOutput | null {
  const record = firstObject(text);
  if (record === null) return null;
  const key = ASSISTANT_TEXT_ALIASES.find((k) => typeof record[k] === "string");
  if (key === undefined) return null;
  const meta: Record<string, unknown> =
    typeof record.meta === "object" && record.meta !== null ? { ...(record.meta as object) } : {};
  for (const k of META_KEYS) if (k in record && !(k in meta)) meta[k] = record[k];
  const rebuilt = parseModelOutput(JSON.stringify({ assistant_text: record[key], meta }));
  // Whatever meta part still fails validation is dropped by the salvage; the text is kept.
  return { envelope: rebuilt.envelope, formatViolation: false, parse: "salvaged" };
}

function firstObject(text: string): Record<string, unknown> | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
