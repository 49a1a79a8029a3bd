import type { DriverBlock, DriverBlockRef } from "../contracts/driver-block.js";
import { deepFreeze } from "../immutable/deep-freeze.js";
import { CLAIMED_ACTION_PATTERNS } from "./claimed-actions.js";

/**
 * The shipped system Driver Blocks. Baseline blocks (BASELINE_DRIVER_BLOCK_REFS) apply on every turn
 * in driverBlockMode "default" because they are cheap and never demand structure from a casual
 * reply; the structural ones (facts, decisions/next, receipt/release) are opt-in by ref.
 */
export const SYSTEM_DRIVER_BLOCKS: readonly DriverBlock[] = deepFreeze<DriverBlock[]>([
  {
    id: "no-claimed-actions",
    version: "1",
    title: "No claimed actions without a receipt",
    scope: "system",
    enforcement: "strict",
    description:
      "The assistant cannot act in the world by itself. It may only say an action happened when a receipt for it is present; otherwise it proposes the action for the user's approval.",
    promptConstraints: [
      'Never say you sent, added, created, scheduled, booked, paid or otherwise did something in the world unless this prompt contains a receipt for it. To act, propose the action in meta.action_needed and say it awaits the user\'s approval; describe content you wrote as "below" or "here".',
    ],
    actionExpectations: CLAIMED_ACTION_PATTERNS.map((when) => ({ when, require: "receipt" })),
  },
  {
    id: "assumptions-labelled",
    version: "1",
    title: "Assumptions labelled",
    scope: "system",
    enforcement: "warn",
    description: "Unconfirmed premises are made visible instead of being assumed silently.",
    promptConstraints: [
      'When you rely on something the user has not confirmed, put it on its own line starting with "Assumption:" rather than assuming it silently in prose.',
    ],
    validators: {
      mustNot: ["I assume/presume", "I'm assuming/presuming", "I am assuming/presuming", "presumably"],
    },
  },
  {
    id: "facts-block",
    version: "1",
    title: "Facts Block",
    scope: "system",
    enforcement: "strict",
    description: "Separates what is known from what is inferred.",
    promptConstraints: [
      'Begin with a "Facts:" section listing only facts given by the user or the retrieved context, one per line; put anything else on "Assumption:" lines.',
    ],
    outputContract: { requiredSections: ["Facts"] },
  },
  {
    id: "decisions-next",
    version: "1",
    title: "Decisions / Next",
    scope: "system",
    enforcement: "strict",
    description:
      "Every reply ends with what is settled and what happens next, so nothing has to be carried in the head.",
    promptConstraints: [
      'End with a "Decisions:" section (what is now settled, or "none") and a "Next:" section (the next concrete steps and who owns each).',
    ],
    outputContract: { requiredSections: ["Decisions", "Next"] },
  },
  {
    id: "receipt-release",
    version: "1",
    title: "Receipt → Release",
    scope: "system",
    enforcement: "strict",
    description: "Confirms what was received before answering and hands control back explicitly.",
    promptConstraints: [
      'Open with "Receipt:" restating in one or two lines what you received and understood; close with "Release:" stating what you hand back and what the user must decide or do.',
    ],
    outputContract: { requiredSections: ["Receipt", "Release"] },
  },
]);

/** System blocks applied on every turn in driverBlockMode "default" (never in "custom"). */
export const BASELINE_DRIVER_BLOCK_REFS: readonly DriverBlockRef[] = deepFreeze<DriverBlockRef[]>([
  { id: "no-claimed-actions", version: "1" },
  { id: "assumptions-labelled", version: "1" },
]);
