import { z } from "zod";
import { allowlist } from "./allowlist.js";

/**
 * Version of the action vocabulary below. Bump it whenever `CANONICAL_ACTIONS` or
 * `ACTION_NORMALIZE_MAP` changes, so stored goals can say which vocabulary parsed them.
 */
export const NORMALIZE_MAP_VERSION = 1;

/** The single allowlist of goal actions; anything else is rejected (fail-closed). */
export const CANONICAL_ACTIONS = allowlist([
  "collect",
  "mine",
  "craft",
  "smelt",
  "build",
  "explore",
  "navigate",
  "find",
  "eat",
  "check",
  "cancel",
  "pause",
  "resume",
  "prioritize",
] as const);

export const CanonicalAction = z.enum(CANONICAL_ACTIONS);
export type CanonicalAction = z.infer<typeof CanonicalAction>;

/** Actions that act on an existing task (named with `id=`) and may therefore omit a target. */
export const MANAGEMENT_ACTIONS: readonly CanonicalAction[] = ["cancel", "pause", "resume", "prioritize"];

/** Synonyms a model tends to use, mapped onto the canonical action they mean. */
export const ACTION_NORMALIZE_MAP: Readonly<Record<string, CanonicalAction>> = Object.freeze({
  gather: "collect",
  get: "collect",
  obtain: "collect",
  chop: "collect",
  harvest: "collect",
  pickup: "collect",
  pick_up: "collect",
  dig: "mine",
  quarry: "mine",
  make: "craft",
  create: "craft",
  cook: "smelt",
  construct: "build",
  scout: "explore",
  wander: "explore",
  go: "navigate",
  travel: "navigate",
  move: "navigate",
  walk: "navigate",
  goto: "navigate",
  go_to: "navigate",
  search: "find",
  locate: "find",
  seek: "find",
  consume: "eat",
  inspect: "check",
  stop: "cancel",
  abort: "cancel",
  continue: "resume",
});

const CANONICAL_SET: ReadonlySet<string> = new Set(CANONICAL_ACTIONS);

/** True when `value` is one of `CANONICAL_ACTIONS`. */
export function isCanonicalAction(value: string): value is CanonicalAction {
  return CANONICAL_SET.has(value);
}

/** Maps a raw action word (any case, hyphens allowed) to its canonical action, or null when unknown. */
export function normalizeGoalAction(raw: string): CanonicalAction | null {
  const word = raw.trim().toLowerCase().replaceAll("-", "_");
  if (isCanonicalAction(word)) return word;
  return Object.hasOwn(ACTION_NORMALIZE_MAP, word) ? (ACTION_NORMALIZE_MAP[word] ?? null) : null;
}
