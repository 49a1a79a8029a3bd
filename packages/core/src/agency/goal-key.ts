import { foldAccentsLower } from "../text/accent-fold.js";

/** Lowercases one goal part and joins its words with underscores; "" when nothing is left. */
function canonicalPart(part: string): string {
  // Untyped callers (model output, JSON) may pass nothing: that is an empty part, not a crash.
  if (typeof part !== "string") return "";
  let out = "";
  let pendingUnderscore = false;
  // Accents are folded, not dropped: "Ölfass" -> "olfass", "café" -> "cafe" (not "lfass", "caf").
  for (const ch of foldAccentsLower(part)) {
    const isWordChar = (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9") || ch === "_";
    if (!isWordChar) {
      pendingUnderscore = out.length > 0;
      continue;
    }
    if (pendingUnderscore) out += "_";
    pendingUnderscore = false;
    out += ch;
  }
  // Leading/trailing underscores carry no meaning and would make "oak_log" and "_oak_log_" differ.
  let start = 0;
  let end = out.length;
  while (start < end && out[start] === "_") start++;
  while (end > start && out[end - 1] === "_") end--;
  return out.slice(start, end);
}

/**
 * The idempotency key of a goal: `action:target`, lowercase, words joined by underscores.
 * Returns "" when either part is empty so callers can write `canonicalGoalKey(a, t) || undefined`.
 */
export function canonicalGoalKey(action: string, target: string): string {
  const a = canonicalPart(action);
  const t = canonicalPart(target);
  return a === "" || t === "" ? "" : `${a}:${t}`;
}
