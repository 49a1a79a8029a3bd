import { z } from "zod";
import { fail, ok, type Result } from "../result.js";
import { zodIssue } from "./atlas/parse-atlas.js";

/** Most pending items a session keeps; older ones are dropped first. */
export const CHECKPOINT_SESSION_LIMITS = Object.freeze({
  pendingActions: 64,
  pendingConfirmations: 32,
  granted: 32,
});

export const PendingCheckpointConfirmation = z
  .object({
    action_id: z.string().min(1).max(128),
    request_id: z.string().min(1).max(128),
    action_key: z.string().min(1).max(256),
    action_type: z.string().min(1).max(128),
    created_at_ms: z.number(),
  })
  .strict();
export type PendingCheckpointConfirmation = z.infer<typeof PendingCheckpointConfirmation>;

/**
 * Everything the engine remembers about one session, as plain JSON: persist it between calls
 * (`JSON.stringify`) and restore it with `restoreCheckpointSession`.
 */
export const CheckpointSessionState = z
  .object({
    version: z.literal(1),
    sessionId: z.string().min(1).max(128),
    intent: z.string().max(2_000).optional(),
    startedAtMs: z.number(),
    lastEventAtMs: z.number(),
    started: z.boolean(),
    ended: z.boolean(),
    /** Keyword patterns (rule ids) that already fired; they do not fire again this session. */
    firedPatterns: z.array(z.string().max(2_100)).max(100_000),
    actionCount: z.number().int().nonnegative(),
    inputCount: z.number().int().nonnegative(),
    /** Last time each interval trigger fired, by trigger id. */
    intervalMarks: z.record(z.string(), z.number()),
    /** Keys of actions seen at `action_pre` whose `action_post` has not arrived yet. */
    pendingActions: z.array(z.string().max(256)).max(CHECKPOINT_SESSION_LIMITS.pendingActions),
    confirmationSeq: z.number().int().nonnegative(),
    pendingConfirmations: z
      .array(PendingCheckpointConfirmation)
      .max(CHECKPOINT_SESSION_LIMITS.pendingConfirmations),
    /** Action keys the user approved; each approval lets one matching `action_pre` through. */
    grantedConfirmations: z.array(z.string().max(256)).max(CHECKPOINT_SESSION_LIMITS.granted),
  })
  .strict();
export type CheckpointSessionState = z.infer<typeof CheckpointSessionState>;

/** A fresh session state starting at `nowMs`. */
export function newCheckpointSession(
  sessionId: string,
  nowMs: number,
  options: { readonly intent?: string } = {},
): CheckpointSessionState {
  return {
    version: 1,
    sessionId,
    ...(options.intent === undefined ? {} : { intent: options.intent }),
    startedAtMs: nowMs,
    lastEventAtMs: nowMs,
    started: false,
    ended: false,
    firedPatterns: [],
    actionCount: 0,
    inputCount: 0,
    intervalMarks: {},
    pendingActions: [],
    confirmationSeq: 0,
    pendingConfirmations: [],
    grantedConfirmations: [],
  };
}

/** Validates a persisted session state (e.g. `JSON.parse` of a stored one). */
export function restoreCheckpointSession(json: unknown): Result<CheckpointSessionState> {
  const parsed = CheckpointSessionState.safeParse(json);
  return parsed.success
    ? ok(parsed.data)
    : fail(...parsed.error.issues.map((issue) => zodIssue(issue, "invalid_session")));
}

/**
 * A deep copy of a session state. Its shape is fixed by the schema (scalars, lists of strings, one
 * record of numbers, one list of flat objects), so each part is copied by hand: a JSON round trip of
 * the same state cost several times as much, and ran for every event a turn evaluates.
 */
export function cloneSession(state: CheckpointSessionState): CheckpointSessionState {
  const copy: CheckpointSessionState = {
    ...state,
    firedPatterns: [...state.firedPatterns],
    intervalMarks: { ...state.intervalMarks },
    pendingActions: [...state.pendingActions],
    pendingConfirmations: state.pendingConfirmations.map((c) => ({ ...c })),
    grantedConfirmations: [...state.grantedConfirmations],
  };
  // As a JSON copy would: a key present but undefined is left out.
  if (copy.intent === undefined) delete copy.intent;
  return copy;
}

/** Appends to a capped list, dropping the oldest items. */
export function pushCapped<T>(list: T[], item: T, cap: number): void {
  list.push(item);
  if (list.length > cap) list.splice(0, list.length - cap);
}
