import { z } from "zod";
import { SolError } from "../errors.js";
import type { RecordOutcome } from "./recording.js";
import type { SanitizedOutput } from "./sanitizer.js";

const Count = z.number().int().min(0);

/** Agency counters of one session (agency-pipeline-contract.md section 5). */
export const AgencyCounters = z
  .object({
    llmCalls: Count,
    goalTags: Count,
    driveTicks: Count,
    signatureSuppressions: Count,
    contentSuppressions: Count,
    intentExtractions: Count,
    lowNoveltyRecorded: Count,
    lowNoveltyBroadcast: Count,
    startedAtMs: z.number().int().min(0),
  })
  .strict();
export type AgencyCounters = z.infer<typeof AgencyCounters>;
export type AgencyCounterName = Exclude<keyof AgencyCounters, "startedAtMs">;

export const AGENCY_COUNTER_NAMES = [
  "llmCalls",
  "goalTags",
  "driveTicks",
  "signatureSuppressions",
  "contentSuppressions",
  "intentExtractions",
  "lowNoveltyRecorded",
  "lowNoveltyBroadcast",
] as const satisfies readonly AgencyCounterName[];

/** Steps to add to some counters at once; absent names are left as they are. */
export type AgencyCounterSteps = Partial<Record<AgencyCounterName, number>>;

/**
 * Refuses steps a store must not apply: an unknown counter name, or a step that is not a
 * non-negative safe integer (counters only grow). Throws SolError `invalid_input`.
 */
export function assertAgencyCounterSteps(steps: AgencyCounterSteps): void {
  for (const [name, step] of Object.entries(steps)) {
    if (!(AGENCY_COUNTER_NAMES as readonly string[]).includes(name)) {
      throw new SolError("invalid_input", `unknown agency counter ${name}`);
    }
    if (!Number.isSafeInteger(step) || (step as number) < 0) {
      throw new SolError("invalid_input", `counter step must be a non-negative integer, got ${step}`);
    }
  }
}

/** Fresh counters, all zero, session started at `nowMs`. */
export function createAgencyCounters(nowMs: number): AgencyCounters {
  return {
    llmCalls: 0,
    goalTags: 0,
    driveTicks: 0,
    signatureSuppressions: 0,
    contentSuppressions: 0,
    intentExtractions: 0,
    lowNoveltyRecorded: 0,
    lowNoveltyBroadcast: 0,
    startedAtMs: nowMs,
  };
}

/**
 * Adds `by` (a non-negative integer, default 1) to one counter and returns new counters. Counters
 * only grow; a negative or fractional step throws SolError `invalid_input`.
 */
export function incrementAgencyCounter(
  counters: AgencyCounters,
  name: AgencyCounterName,
  by = 1,
): AgencyCounters {
  if (!Number.isInteger(by) || by < 0) {
    throw new SolError("invalid_input", `counter step must be a non-negative integer, got ${by}`);
  }
  return by === 0 ? counters : { ...counters, [name]: counters[name] + by };
}

/** Counts one LLM call and what its sanitized output carried (goal tag, non-`none` intent). */
export function countLlmOutput(
  counters: AgencyCounters,
  output: Pick<SanitizedOutput, "goal" | "intent">,
): AgencyCounters {
  let next = incrementAgencyCounter(counters, "llmCalls");
  if (output.goal !== null) next = incrementAgencyCounter(next, "goalTags");
  if (output.intent !== null && output.intent !== "none")
    next = incrementAgencyCounter(next, "intentExtractions");
  return next;
}

/** Counts what `recordThought()` did: content dedup, low-novelty recorded and broadcast. */
export function countRecording(counters: AgencyCounters, outcome: RecordOutcome): AgencyCounters {
  if (!outcome.contentDedup) return counters;
  let next = incrementAgencyCounter(counters, "contentSuppressions");
  next = incrementAgencyCounter(next, "lowNoveltyRecorded");
  return outcome.broadcast === undefined ? next : incrementAgencyCounter(next, "lowNoveltyBroadcast");
}

/** The only way to reset: fresh zero counters with a new session start. */
export function resetAgencyCounters(_counters: AgencyCounters, nowMs: number): AgencyCounters {
  return createAgencyCounters(nowMs);
}

/** `[Agency {uptimeMin}m] llm=N goals=N drives=N sigDedup=N contentDedup=N intents=N` */
export function formatAgencyCountersLine(counters: AgencyCounters, nowMs: number): string {
  const uptimeMin = Math.max(0, Math.floor((nowMs - counters.startedAtMs) / 60_000));
  return (
    `[Agency ${uptimeMin}m] llm=${counters.llmCalls} goals=${counters.goalTags} drives=${counters.driveTicks} ` +
    `sigDedup=${counters.signatureSuppressions} contentDedup=${counters.contentSuppressions} ` +
    `intents=${counters.intentExtractions}`
  );
}
