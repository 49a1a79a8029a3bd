import { truncateDegeneration } from "./degeneration.js";
import { extractGoalTag, type GoalTagFailReason, type GoalTagV1 } from "./goal-tag.js";
import { extractIntent, type IntentLabel, type IntentParse } from "./intent.js";
import {
  normalizeWhitespace,
  stripCodeFences,
  stripSystemPromptLeaks,
  stripWrappingQuotes,
} from "./text-steps.js";
import { stripTrailingGarbage } from "./trailing-garbage.js";

/**
 * Upper bound on pipeline passes. One pass can expose work for an earlier step (removing a tag
 * at the end uncovers a closing quote), so the cleaning steps repeat until a pass changes nothing;
 * ordinary replies need one pass plus a confirming one. Extra passes come from quotes uncovered
 * for stripWrappingQuotes (no step adds quote marks and each of the eight can be stripped at most
 * once), so a handful suffices; the bound keeps the worst case linear.
 */
export const SANITIZE_MAX_PASSES = 12;

/** Which pipeline steps changed the text (in any pass). */
export interface SanitizeFlags {
  readonly stripCodeFences: boolean;
  readonly stripWrappingQuotes: boolean;
  readonly stripSystemPromptLeaks: boolean;
  readonly extractGoalTag: boolean;
  readonly extractIntent: boolean;
  readonly truncateDegeneration: boolean;
  readonly stripTrailingGarbage: boolean;
  readonly normalizeWhitespace: boolean;
}

export interface SanitizedOutput {
  readonly text: string;
  readonly goal: GoalTagV1 | null;
  readonly goalFailReason?: GoalTagFailReason;
  readonly intent: IntentLabel | null;
  readonly intentParse: IntentParse | null;
  readonly flags: SanitizeFlags;
}

type MutableFlags = { -readonly [K in keyof SanitizeFlags]: SanitizeFlags[K] };

type TextStep = readonly [keyof SanitizeFlags, (text: string) => string];

// Names are spelled out: a minifier may rename the functions themselves.
const TEXT_STEPS_BEFORE_GOAL: readonly TextStep[] = [
  ["stripCodeFences", stripCodeFences],
  ["stripWrappingQuotes", stripWrappingQuotes],
  ["stripSystemPromptLeaks", (text) => stripSystemPromptLeaks(text)],
];
const TEXT_STEPS_AFTER_INTENT: readonly TextStep[] = [
  ["truncateDegeneration", truncateDegeneration],
  ["stripTrailingGarbage", stripTrailingGarbage],
  ["normalizeWhitespace", normalizeWhitespace],
];

function applyStep(flags: MutableFlags, [name, step]: TextStep, text: string): string {
  const next = step(text);
  if (next !== text) flags[name] = true;
  return next;
}

function applySteps(flags: MutableFlags, steps: readonly TextStep[], input: string): string {
  let text = input;
  for (const step of steps) text = applyStep(flags, step, text);
  return text;
}

/**
 * Cleans raw model output: stripCodeFences -> stripWrappingQuotes -> stripSystemPromptLeaks ->
 * extractGoalTag -> extractIntent -> truncateDegeneration -> stripTrailingGarbage ->
 * normalizeWhitespace. Goal and intent are extracted in the first pass only; the cleaning steps
 * then repeat until the text is stable. Never throws; linear in the input length.
 */
export function sanitizeLLMOutput(raw: string): SanitizedOutput {
  const flags: MutableFlags = {
    stripCodeFences: false,
    stripWrappingQuotes: false,
    stripSystemPromptLeaks: false,
    extractGoalTag: false,
    extractIntent: false,
    truncateDegeneration: false,
    stripTrailingGarbage: false,
    normalizeWhitespace: false,
  };
  const input = typeof raw === "string" ? raw : "";
  // Goal and intent are extracted once: a second extraction would take the next `[GOAL:` tag out,
  // and the contract lets extraction strip only the matched tag. Later passes only clean.
  const cleaned = applySteps(flags, TEXT_STEPS_BEFORE_GOAL, input);
  const goal = extractGoalTag(cleaned);
  if (goal.text !== cleaned) flags.extractGoalTag = true;
  const intent = extractIntent(goal.text);
  if (intent.text !== goal.text) flags.extractIntent = true;
  // Stop as soon as a pass changes nothing: that text is a fixed point of the cleaning steps.
  let before = input;
  let text = applySteps(flags, TEXT_STEPS_AFTER_INTENT, intent.text);
  for (let pass = 1; pass < SANITIZE_MAX_PASSES && text !== before; pass++) {
    before = text;
    text = applySteps(flags, TEXT_STEPS_AFTER_INTENT, applySteps(flags, TEXT_STEPS_BEFORE_GOAL, text));
  }
  const { failReason } = goal;
  return {
    text,
    goal: goal.goal,
    ...(failReason === undefined ? {} : { goalFailReason: failReason }),
    intent: intent.intent,
    intentParse: intent.intentParse,
    flags,
  };
}
