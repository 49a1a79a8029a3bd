/** Words that, on their own, make a message a pure acknowledgment (breakpoint-engine.md). */
export const ACK_TOKENS: ReadonlySet<string> = new Set([
  "ok",
  "okay",
  "kk",
  "thx",
  "thanks",
  "got",
  "it",
  "sounds",
  "good",
  "cool",
  "yep",
  "yup",
  "sure",
  "all",
  "right",
]);

const STRIPPED_PUNCTUATION = /[.,!?]/g;
const WHITESPACE_RUN = /\s+/g;

/** True when every word of the message is an ack token ("ok thanks", "Sounds good!"); empty is false. */
export function isAckOnlyMessage(message: string): boolean {
  const normalized = message
    .trim()
    .toLowerCase()
    .replace(STRIPPED_PUNCTUATION, "")
    .replace(WHITESPACE_RUN, " ")
    .trim();
  // A message that was only punctuation normalises to nothing and carries no acknowledgment either.
  if (normalized === "") return false;
  return normalized.split(" ").every((token) => ACK_TOKENS.has(token));
}
