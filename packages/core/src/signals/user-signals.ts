import type { ThreadMementoSignalKind } from "../contracts/signals.js";
import { ackConfidence } from "./ack.js";
import { bestCueHit, type HedgePolicy } from "./cue-match.js";
import type { Hit } from "./reply.js";
import { type Clause, normalizeText, splitClauses, words } from "./text.js";
import {
  DECISION_CUES,
  OPEN_LOOP_CUES,
  PIVOT_CUES,
  RESOLVED_CUES,
  RISK_CUES,
  SCOPE_CUES,
} from "./user-cues.js";

type UserKind = Exclude<ThreadMementoSignalKind, "answer_provided">;

const CHOICE_OFFER = /\b(?:or|which|would you like|do you want|prefer)\b/;
const CHOICE_TAKEN =
  /^(?:(?:yes|yeah|yep|ok|okay|sure|great),? ){0,3}(?:let'?s (?:do|go with) |go with |i'll take |we'll take )?(?:the )?(?:first|second|third|last|other|option \w+|plan \w+|number \w+)\b|^[\w ]{1,20} it is\b/;

/** The user's side of the turn: every user-driven kind with its best hit. */
export function detectUserSignals(
  message: string,
  previousAssistantText: string | undefined,
  openLoops: readonly string[],
): Map<UserKind, Hit> {
  const hits = new Map<UserKind, Hit>();
  const ack = ackConfidence(message);
  if (ack > 0) {
    hits.set("ack_only", { confidence: ack, summary: message.trim() });
    return hits;
  }
  const clauses = splitClauses(message);
  const put = (kind: UserKind, hit: Hit | undefined) => {
    if (hit !== undefined) hits.set(kind, hit);
  };
  put(
    "decision_made",
    strongest(cue(clauses, DECISION_CUES, "drop"), choiceTaken(message, previousAssistantText)),
  );
  put("pivot", cue(clauses, PIVOT_CUES, "drop"));
  // A pivot drops the whole topic; the same "forget/drop" words must not also read as a narrowed scope.
  if (!hits.has("pivot")) put("scope_changed", cue(clauses, SCOPE_CUES, "drop"));
  put("open_loop_created", cue(clauses, OPEN_LOOP_CUES, "lower"));
  put("open_loop_resolved", resolved(clauses, message, openLoops));
  put("risk_or_conflict", cue(clauses, RISK_CUES, "keep"));
  return hits;
}

function cue(
  clauses: readonly Clause[],
  cues: Parameters<typeof bestCueHit>[1],
  hedge: HedgePolicy,
): Hit | undefined {
  const hit = bestCueHit(clauses, cues, hedge);
  return hit === undefined ? undefined : { confidence: hit.confidence, summary: hit.clause.raw };
}

function strongest(a: Hit | undefined, b: Hit | undefined): Hit | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.confidence > a.confidence ? b : a;
}

/** "The first one" or "option B it is" right after the assistant offered a choice. */
function choiceTaken(message: string, previous: string | undefined): Hit | undefined {
  if (previous === undefined || !previous.includes("?")) return undefined;
  if (!CHOICE_OFFER.test(normalizeText(previous))) return undefined;
  const text = normalizeText(message);
  return CHOICE_TAKEN.test(text) ? { confidence: 0.8, summary: message.trim() } : undefined;
}

/** A resolution cue, made surer when the message names one of the thread's open loops. */
function resolved(
  clauses: readonly Clause[],
  message: string,
  openLoops: readonly string[],
): Hit | undefined {
  const hit = cue(clauses, RESOLVED_CUES, "drop");
  if (hit === undefined || openLoops.length === 0) return hit;
  const said = new Set(words(normalizeText(message)).filter((word) => word.length > 3));
  const named = openLoops.some((loop) => words(normalizeText(loop)).some((word) => said.has(word)));
  return { ...hit, confidence: Math.min(0.95, hit.confidence + (named ? 0.1 : 0.05)) };
}
