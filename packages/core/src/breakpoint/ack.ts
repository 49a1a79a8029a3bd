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
  if (lastAck !== undefined && lastAck.message === message) return lastAck.ack;
  const ack = readAckOnly(message);
  lastAck = { message, ack };
  return ack;
}

// A turn asks this of its message several times (the detectors, the breakpoint before and after the
// reply): the last answer is kept.
let lastAck: { readonly message: string; readonly ack: boolean } | undefined;

function readAckOnly(message: string): boolean {
  const normalized = message
    .trim()
    .toLowerCase()
    .replace(STRIPPED_PUNCTUATION, "")
    .replace(WHITESPACE_RUN, " ");
  // "" (empty, or only punctuation) splits into one empty token, so it is false like any other.
  return normalized.split(" ").every((token) => ACK_TOKENS.has(token));
}
