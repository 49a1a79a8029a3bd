import { captureAll, normalizeMessage } from "./text-cues.js";

const CLAUSE = String.raw`([^.!?;\n]+)`;
const DECISION = new RegExp(
  String.raw`\b((?:let's|let us|we decided(?: to)?|i decided(?: to)?|we've decided(?: to)?|i'll go with|we'll go with|i'm going with|we're going with|decided on)\s+${CLAUSE})`,
  "gi",
);
const NEXT = new RegExp(
  String.raw`\b(?:i need to|i have to|we need to|i must|todo:?|to-do:?|to do:|next:|next step(?: is)?:?|next,? i'll)\s+${CLAUSE}`,
  "gi",
);
const PARK = new RegExp(String.raw`\b(?:park|set aside|put aside|later:)\s+(?:the\s+)?${CLAUSE}`, "gi");
const ACTIVE = new RegExp(
  String.raw`\b(?:i'm working on|i am working on|we're working on|focus(?:ing)? on)\s+${CLAUSE}`,
  "gi",
);
const RESOLVED = new RegExp(
  String.raw`\b(?:i finished|i've finished|i completed|done with|finished with)\s+${CLAUSE}`,
  "gi",
);
const PIVOT =
  /\b(?:actually,? let's|instead|change of plans?|switch(?:ing)? to|different topic|new topic|on another note)\b/i;
const SCOPE =
  /\b(?:also need|in addition|expand(?:ing)? the scope|narrow(?:ing)? (?:it|the scope)|out of scope|only focus)\b/i;
const RISK = /\b(?:risk|risky|conflict|worried|concern(?:ed)?|problem|blocker|can't afford)\b/i;

/** What the lexical cues of one user message say, before it is shaped into envelope metadata. */
export interface MessageCues {
  readonly decisions: readonly string[];
  readonly next: readonly string[];
  readonly parked: readonly string[];
  readonly active: readonly string[];
  readonly resolved: readonly string[];
  readonly question: boolean;
  readonly pivot: boolean;
  readonly scope: boolean;
  readonly risk: boolean;
}

/** Reads the lexical cues of a user message; deterministic. */
export function readCues(message: string): MessageCues {
  const text = normalizeMessage(message);
  const parked = captureAll(PARK, text);
  // "let's park X" parks X rather than deciding it.
  const decisions = captureAll(DECISION, text).filter(
    (d) => !/^let(?:'s| us) (?:park|set aside|put aside)\b/i.test(d),
  );
  return {
    decisions,
    next: captureAll(NEXT, text),
    parked,
    active: captureAll(ACTIVE, text),
    resolved: captureAll(RESOLVED, text),
    question: text.includes("?"),
    pivot: PIVOT.test(text),
    scope: SCOPE.test(text),
    risk: RISK.test(text),
  };
}
