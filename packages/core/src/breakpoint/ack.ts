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

/**
 * True when every token of the message is an ack token ("ok thanks", "Sounds good!"); empty is false.
 * The steps are breakpoint-engine.md's, in its order (api.md: "exactly as"): trim, lowercase, strip
 * `.,!?`, collapse whitespace, split on spaces. The trim comes first, so punctuation set apart by a
 * space ("ok !") leaves an empty token, which is not an ack token: such a message is not ack-only.
 */
export function isAckOnlyMessage(message: string): boolean {
  const normalized = message
    .trim()
    .toLowerCase()
    .replace(STRIPPED_PUNCTUATION, "")
    .replace(WHITESPACE_RUN, " ");
  // "" (empty, or only punctuation) splits into one empty token, so it is false like any other.
  return normalized.split(" ").every((token) => ACK_TOKENS.has(token));
}
