import { ThreadMementoSignalKind } from "../contracts/signals.js";

/** Version tag of the output format the prompt asks for (api.md §4). */
export const ENVELOPE_VERSION = "output-envelope-v1";

/** The output-format part of the system prompt: ONE JSON object following output envelope v1. */
export const ENVELOPE_INSTRUCTIONS: string = [
  "# Output format (output envelope v1)",
  "Reply with exactly ONE JSON object and nothing else: no prose and no code fences around it.",
  '{ "assistant_text": string,',
  '  "meta": { "shape"?: { "arc": string, "active": string[], "parked": string[], "decisions": string[], "next": string[] },',
  '            "affect_signal"?: { "label": string, "intensity": number 0..1, "confidence": "low"|"med"|"high" },',
  '            "signals"?: [{ "kind": string, "confidence": "low"|"med"|"high", "summary"?: string }],',
  '            "action_needed"?: [{ "action_kind": string, "action_label": string, "action_summary_bullets": string[1..3], "action_target"?: string, "action_data_used"?: string, "action_why"?: string, "action_payload"?: object }] } }',
  "- assistant_text is the whole reply the user sees (markdown allowed); every required section and rule applies to it.",
  "- meta is optional. shape summarises the thread so far (short items, at most 200 characters each).",
  `- signals[].kind is one of: ${ThreadMementoSignalKind.options.join(", ")}.`,
  "- action_needed proposes actions for the user to approve; proposing is not doing, so never describe them as done.",
].join("\n");
