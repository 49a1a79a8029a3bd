import type { ActionStatus } from "../contracts/action.js";

/**
 * An identical proposal (same thread, kind and payload hash) in one of these statuses makes a new one
 * redundant: the user already has a chip for it, is running it, or has it done. Failed ones do not
 * block, so a failure never stops the action from being offered again.
 */
export const PROPOSAL_BLOCKING_STATUSES: readonly ActionStatus[] = Object.freeze([
  "proposed",
  "deferred",
  "approved",
  "executing",
  "succeeded",
]);

/** An earlier action of the same thread with the same kind and payload hash. */
export interface IdenticalAction {
  readonly actionId: string;
  readonly requestId: string;
  readonly status: ActionStatus;
}

/** What to do with a proposal: store it, reuse the one this same request made, or drop it. */
export type ProposalDecision =
  | { readonly kind: "propose" }
  | { readonly kind: "replay"; readonly actionId: string }
  | { readonly kind: "suppress"; readonly actionId: string };

/**
 * The "not proposed again unless the user asks again" rule (breakpoint-chip-permission-gate.md, Buffer):
 * 1. an identical action made by the same request (a retried turn) is reused, never duplicated;
 * 2. otherwise, when the user's message itself asks for the action, it is proposed again;
 * 3. otherwise an identical action in a blocking status suppresses it; else it is proposed.
 */
export function decideProposal(args: {
  readonly requestId: string;
  readonly explicitRequest: boolean;
  readonly identical: readonly IdenticalAction[];
}): ProposalDecision {
  const sameRequest = args.identical.find((a) => a.requestId === args.requestId);
  if (sameRequest) return { kind: "replay", actionId: sameRequest.actionId };
  if (args.explicitRequest) return { kind: "propose" };
  const blocking = [...args.identical].reverse().find((a) => PROPOSAL_BLOCKING_STATUSES.includes(a.status));
  return blocking ? { kind: "suppress", actionId: blocking.actionId } : { kind: "propose" };
}

const GAP = String.raw`(?:\s+[\p{L}\p{N}'’-]+){0,5}?\s+`;
const REQUEST_VERBS = [
  "add",
  "book",
  "call",
  "create",
  "fire",
  "make",
  "notify",
  "ping",
  "post",
  "put",
  "schedule",
  "send",
  "set",
  "trigger",
];

/** Request cues of the built-in kinds; other kinds get one built from their own words. */
const KIND_CUES: Readonly<Record<string, RegExp>> = Object.freeze({
  create_reminder: new RegExp(
    String.raw`\bremind\s+(?:me|us)\b|\b(?:set|create|add|make|schedule)${GAP}reminders?\b`,
    "iu",
  ),
  create_calendar_event: new RegExp(
    String.raw`\b(?:add|put|schedule|create|book|set\s+up|make|block)${GAP}(?:calendar|events?|meetings?|appointments?)\b`,
    "iu",
  ),
  webhook: new RegExp(String.raw`\b(?:send|post|trigger|fire|call|ping)${GAP}webhooks?\b`, "iu"),
});

// Explicit repetition: "do that again", "remind me once more", "one more time please".
const REPEAT_CUE = /\b(?:again|once\s+more|one\s+more\s+time)\b/iu;
// "again" that asks for nothing: thanks ("thanks again", "thank you so much again") and refusals.
const IDLE_AGAIN = /\b(?:(?:thanks|thank\s+you|thx)(?:\s+(?:so|very)\s+much)?|never|not)\s+again\b/giu;

function kindCue(actionKind: string): RegExp | null {
  const known = Object.hasOwn(KIND_CUES, actionKind) ? KIND_CUES[actionKind] : undefined;
  if (known) return known;
  const nouns = actionKind
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !REQUEST_VERBS.includes(word));
  if (nouns.length === 0) return null;
  return new RegExp(String.raw`\b(?:${REQUEST_VERBS.join("|")})${GAP}(?:${nouns.join("|")})s?\b`, "iu");
}

/**
 * True when the user's message itself asks for an action of this kind: it contains the kind's request
 * cue ("remind me ...", "add ... to my calendar", "send the webhook") or asks for a repeat ("again").
 */
export function userAsksForAction(message: string, actionKind: string): boolean {
  if (REPEAT_CUE.test(message.replace(IDLE_AGAIN, " "))) return true;
  return kindCue(actionKind)?.test(message) ?? false;
}
