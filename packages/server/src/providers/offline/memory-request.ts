import type { EnvelopeActionNeeded } from "@solserver/core";
import { clip, normalizeMessage, trimClause } from "./text-cues.js";

// "remember that …", "please remember: …", "can you remember that …"; not "do you remember …?".
const REMEMBER = /\bremember(?:\s+that|\s*:)\s+(.+)$/i;
const QUESTION = /\bdo you remember\b|\bremember when\b/i;
// A sentence ends at ! ? a newline, or a period followed by a space or the end.
const SENTENCE_END = /[!?\n]|\.(?=\s|$)/;

/** The fact of a "remember that <fact>" request in a user message; deterministic and lexical. */
export function detectMemoryRequest(message: string): string | undefined {
  if (QUESTION.test(message)) return undefined;
  const normalized = normalizeMessage(message);
  const match = REMEMBER.exec(normalized);
  if (!match) return undefined;
  const tail = match[1] ?? "";
  const end = SENTENCE_END.exec(tail);
  const fact = clip(trimClause(end ? tail.slice(0, end.index) : tail), 400);
  return fact === "" ? undefined : fact;
}

/** The `meta.action_needed` entry proposing to save `fact` as a memory (saved only when approved). */
export function memoryAction(fact: string): EnvelopeActionNeeded {
  return {
    action_kind: "save_memory",
    action_label: "Save Memory",
    action_summary_bullets: [`Remember: ${clip(fact, 180)}`],
    action_target: "Memories",
    action_data_used: "the fact you asked me to remember",
    action_why: "You asked me to remember it.",
    action_payload: { text: fact },
  };
}
