/**
 * Phrases in which the assistant claims it performed an action in the world. Shared by the
 * `no-claimed-actions` block and the linter's governance floor, so both catch the same claims.
 * Slash alternatives replace one word position (see patterns.ts); the verbs are split in two
 * lists only to keep each pattern under the 200-character contract limit.
 */
const MESSAGING_VERBS = "sent/emailed/texted/messaged/forwarded/posted/published/submitted/uploaded";
const RECORD_VERBS =
  "added/created/scheduled/booked/reserved/ordered/purchased/paid/transferred/deleted/cancelled/canceled/saved/deployed";
const PASSIVE_VERBS =
  "sent/scheduled/booked/ordered/submitted/cancelled/canceled/paid/transferred/emailed/deleted";

/** Claimed-action patterns: first person past/perfect, and "has been booked" style passives. */
export const CLAIMED_ACTION_PATTERNS: readonly string[] = Object.freeze(
  ["I", "I've", "I have", "I just"]
    .flatMap((subject) => [`${subject} ${MESSAGING_VERBS}`, `${subject} ${RECORD_VERBS}`])
    .concat([`has/have been ${PASSIVE_VERBS}`]),
);
