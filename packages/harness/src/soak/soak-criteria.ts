import { AGENCY_COUNTER_NAMES, type AgencyCounters, type Task } from "@solserver/core";
import type { ThoughtEntry } from "@solserver/server";
import type { ObservedFire, ObservedTick } from "./soak-observer.js";
import {
  holdsGoalPerSpec,
  SPEC_DRIVE_TICK_INTERVAL_MS,
  SPEC_STUCK_TIMEOUT_MS,
  soakGoalOf,
} from "./spec-rules.js";

/** Everything the eight acceptance criteria (agency contract §7.2) are judged on. */
export interface SoakEvidence {
  readonly mode: "survival" | "creative";
  /** Where the model thoughts came from (default scripted). */
  readonly thoughtSource?: string;
  /** Model behind the generator's thoughts, as the provider names itself (generator runs). */
  readonly model?: string;
  readonly counters: AgencyCounters;
  /** Counters sampled during the run, in order (monotonicity). */
  readonly counterSamples: readonly AgencyCounters[];
  /** The task store at the end. */
  readonly tasks: readonly Task[];
  readonly thoughts: readonly ThoughtEntry[];
  readonly fires: readonly ObservedFire[];
  /** Every drive-tick evaluation (fired or skipped, probes included), in order. */
  readonly ticks: readonly ObservedTick[];
  readonly claims: readonly { readonly taskId: string; readonly driveTick: boolean }[];
  readonly violations: readonly string[];
  /** The task the executor left alone on purpose, if one was picked. */
  readonly stalledTaskId: string | null;
  /**
   * Creative/spectator probes sent during a survival run, how many fired, and per mode how many were
   * refused right before a survival tick on the same world fired (only those test the mode gate).
   */
  readonly probes: {
    readonly sent: number;
    readonly fired: number;
    readonly effective: { readonly creative: number; readonly spectator: number };
  };
  readonly worldStartMs: number;
  readonly worldEndMs: number;
  /** Drive ticks suppressed because the goal was held (idempotency exercised). */
  readonly duplicateSuppressions: number;
  /** How many recent thoughts content dedup compares a new one with (the server's setting). */
  readonly similarityWindow: number;
  /** Why the run stopped early (an API call failed), if it did. */
  readonly runError?: string;
}

export type CriterionStatus = "PASS" | "FAIL" | "N/A";

export interface CriterionResult {
  readonly id: number | "extra";
  readonly title: string;
  readonly status: CriterionStatus;
  readonly detail: string;
}

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const pass = (ok: boolean): CriterionStatus => (ok ? "PASS" : "FAIL");
const isDriveTask = (t: Task) => t.metadata.extractedGoalSource === "drive-tick";

function cadence(e: SoakEvidence): CriterionResult {
  const title = "Task creation cadence";
  if (e.mode === "creative")
    return { id: 1, title, status: "N/A", detail: "creative mode: drive ticks never fire" };
  const gaps = e.fires.slice(1).map((f, i) => f.worldMs - (e.fires[i]?.worldMs ?? 0));
  const tooSoon = gaps.filter((g) => g < SPEC_DRIVE_TICK_INTERVAL_MS).length;
  const created = e.fires.filter((f) => f.taskId !== undefined).length;
  const mean = gaps.length === 0 ? 0 : gaps.reduce((a, b) => a + b, 0) / gaps.length;
  // "~3 min": once 180 s have passed since the last fire, the timer gate must be open. A tick
  // refused for "interval" after that means ticks come slower than the contract's cadence.
  let lastFire: number | undefined;
  let lateIntervalSkips = 0;
  for (const tick of e.ticks) {
    if (tick.fired) lastFire = tick.worldMs;
    else if (
      tick.reason === "interval" &&
      (lastFire === undefined || tick.worldMs - lastFire >= SPEC_DRIVE_TICK_INTERVAL_MS)
    )
      lateIntervalSkips++;
  }
  const ok =
    e.counters.driveTicks > 0 &&
    e.counters.goalTags > 0 &&
    created > 0 &&
    tooSoon === 0 &&
    lateIntervalSkips === 0;
  return {
    id: 1,
    title,
    status: pass(ok),
    detail:
      `driveTicks=${e.counters.driveTicks} goalTags=${e.counters.goalTags} tasks from ticks=${created}` +
      ` mean interval=${gaps.length ? minutes(mean) : "n/a"} (world) intervals<3min=${tooSoon}` +
      ` "interval" refusals 3+ min after the last fire=${lateIntervalSkips}`,
  };
}

function claims(e: SoakEvidence): CriterionResult {
  const title = "Executor claims";
  if (e.mode === "creative")
    return { id: 2, title, status: "N/A", detail: "creative mode: no drive-tick tasks" };
  const driveClaims = e.claims.filter((c) => c.driveTick).length;
  return {
    id: 2,
    title,
    status: pass(driveClaims > 0),
    detail: `drive-tick tasks claimed pending->active: ${driveClaims} (all claims: ${e.claims.length})`,
  };
}

function closure(e: SoakEvidence): CriterionResult {
  const title = "Progress closure";
  if (e.mode === "creative")
    return { id: 3, title, status: "N/A", detail: "creative mode: no drive-tick tasks" };
  const done = e.tasks.filter((t) => t.status === "completed").length;
  const failed = e.tasks.filter((t) => t.status === "failed").length;
  const driveClosed = e.tasks.filter(
    (t) => isDriveTask(t) && (t.status === "completed" || t.status === "failed"),
  );
  return {
    id: 3,
    title,
    status: pass(driveClosed.length > 0),
    detail: `completed=${done} failed=${failed} (drive-tick tasks closed: ${driveClosed.length})`,
  };
}

function idempotency(e: SoakEvidence): CriterionResult {
  const title = "Idempotency under repetition";
  if (e.mode === "creative")
    return { id: 4, title, status: "N/A", detail: "creative mode: no drive-tick tasks" };
  // At the end, no goal may be held by two open, live tasks either (contract §3.2, by goal).
  const holders = new Map<string, number>();
  for (const t of e.tasks) {
    const goal = soakGoalOf(t);
    if (goal !== undefined && holdsGoalPerSpec(t, e.worldEndMs))
      holders.set(goal, (holders.get(goal) ?? 0) + 1);
  }
  const doubled = [...holders].filter(([, n]) => n > 1).map(([k]) => k);
  // Without a goalKey the pipeline's dedup cannot match a task (stall class goalKey_missing).
  const keyless = e.tasks.filter((t) => t.metadata.goalKey === undefined).map((t) => t.id);
  const ok = e.violations.length === 0 && doubled.length === 0 && keyless.length === 0;
  return {
    id: 4,
    title,
    status: pass(ok),
    detail:
      `violations=${e.violations.length}${e.violations.length ? ` (${e.violations.slice(0, 3).join("; ")})` : ""}` +
      ` goals held twice at end=${doubled.length} duplicate_goal suppressions=${e.duplicateSuppressions}` +
      (keyless.length
        ? ` tasks without goalKey=${keyless.length} (goalKey_missing: ${keyless.slice(0, 3).join(", ")})`
        : ""),
  };
}

function stuckRecovery(e: SoakEvidence): CriterionResult {
  const title = "Stuck-timeout recovery";
  if (e.mode === "creative")
    return { id: 5, title, status: "N/A", detail: "creative mode: no drive-tick tasks" };
  const stalled = e.tasks.find((t) => t.id === e.stalledTaskId);
  if (stalled === undefined) return { id: 5, title, status: "FAIL", detail: "no task was stalled" };
  if (stalled.metadata.goalKey === undefined) {
    return {
      id: 5,
      title,
      status: "FAIL",
      detail: `${stalled.id} stalled without a goalKey (goalKey_missing)`,
    };
  }
  const goal = stalled.metadata.goalKey;
  const stillStuck = stalled.status === "pending" && stalled.progress === 0;
  const stuckAt = stalled.metadata.createdAt + SPEC_STUCK_TIMEOUT_MS;
  const after = (ms: number) => `${minutes(ms - stalled.metadata.createdAt)} after it was created`;
  // "the next drive tick creates a new task for the same goal": the first tick, once the task is
  // stuck, that called for its goal and passed the safety and timer gates (it fired, or was refused
  // as a duplicate), while no other task held that goal.
  const next = e.ticks.find(
    (t) =>
      t.worldMs >= stuckAt &&
      t.goalKey === goal &&
      (t.fired || t.reason === "duplicate_goal") &&
      (t.heldBy === undefined || t.heldBy === stalled.id),
  );
  const successor = e.tasks.find((t) => next?.taskId !== undefined && t.id === next.taskId);
  const ran = e.worldEndMs - e.worldStartMs;
  let detail: string;
  if (next === undefined) {
    detail = `no drive tick called for ${goal} after ${stalled.id} was stuck (world time run: ${minutes(ran)}; needs more than 5 min)`;
  } else if (successor === undefined) {
    const why = next.fired ? `fired, then ${next.reason ?? "no task"}` : `refused: ${next.reason ?? "?"}`;
    detail = `${stalled.id} stuck (pending, 0 progress) but the next drive tick for ${goal}, ${after(next.worldMs)}, created no task (${why})`;
  } else {
    detail = `${stalled.id} stalled (pending, 0 progress); the next drive tick created ${successor.id} for ${goal} ${after(successor.metadata.createdAt)} (world)`;
  }
  if (!stillStuck)
    detail += `; ${stalled.id} is no longer stuck (${stalled.status}, progress ${stalled.progress})`;
  return { id: 5, title, status: pass(stillStuck && successor !== undefined), detail };
}

function compliance(e: SoakEvidence): CriterionResult {
  const { intentExtractions, llmCalls } = e.counters;
  return {
    id: 6,
    title: "Compliance signal",
    status: pass(intentExtractions > 0),
    detail:
      `intentExtractions=${intentExtractions} of llmCalls=${llmCalls}` +
      (e.thoughtSource === "generator"
        ? ` (thought generator on ${e.model ?? "the configured provider"})`
        : " (relayed scripted model outputs; no language model in the loop)"),
  };
}

function noLowNoveltyTasks(e: SoakEvidence): CriterionResult {
  const ineligible = e.tasks.filter((t) => t.metadata.convertEligible !== true);
  const lowIds = new Set(
    e.thoughts
      .filter((x) => x.thought.novelty === "low" || x.thought.convertEligible === false)
      .map((x) => x.thought.id),
  );
  const fromLow = e.tasks.filter(
    (t) => t.metadata.sourceThoughtId !== undefined && lowIds.has(t.metadata.sourceThoughtId),
  );
  // The feed repeats a thought on purpose: an exact repeat of one of the last `similarityWindow`
  // thoughts is what content dedup must turn low-novelty (§4.1). One that stayed high novelty, or
  // became a task, is a low-novelty task the criterion exists to catch (drive ticks are exempt).
  let repeats = 0;
  const missed: string[] = [];
  e.thoughts.forEach(({ thought, decision }, i) => {
    // Texts without words are similar only through a shared goalKey (recording.ts): not counted.
    if (thought.source === "drive-tick" || !/[\p{L}\p{N}]/u.test(thought.text)) return;
    const earlier = e.thoughts.slice(Math.max(0, i - e.similarityWindow), i);
    const same = (x: ThoughtEntry) =>
      x.thought.text === thought.text && x.thought.metadata.goalKey === thought.metadata.goalKey;
    if (!earlier.some(same)) return;
    repeats++;
    if (thought.novelty !== "low" || decision === "created") missed.push(thought.id);
  });
  return {
    id: 7,
    title: "No low-novelty task creation",
    status: pass(ineligible.length === 0 && fromLow.length === 0 && missed.length === 0),
    detail:
      `tasks with convertEligible!=true: ${ineligible.length}; tasks from low-novelty thoughts: ${fromLow.length}` +
      `; exact repeats=${repeats}, not made low-novelty or converted=${missed.length}` +
      `${missed.length ? ` (${missed.slice(0, 3).join(", ")})` : ""}` +
      ` (low-novelty recorded: ${e.counters.lowNoveltyRecorded}, tasks: ${e.tasks.length})`,
  };
}

function creativeSafety(e: SoakEvidence): CriterionResult {
  const title = "Creative/spectator safety";
  if (e.mode === "creative") {
    return {
      id: 8,
      title,
      status: pass(e.counters.driveTicks === 0 && e.fires.length === 0),
      detail: `creative run: counters.driveTicks=${e.counters.driveTicks}`,
    };
  }
  return {
    id: 8,
    title: `${title} (probe)`,
    status: pass(e.probes.fired === 0 && e.probes.effective.creative > 0 && e.probes.effective.spectator > 0),
    detail:
      `creative/spectator probes sent=${e.probes.sent} fired=${e.probes.fired}; refused just before a` +
      ` survival tick on the same world fired: creative=${e.probes.effective.creative}` +
      ` spectator=${e.probes.effective.spectator}`,
  };
}

function monotonic(e: SoakEvidence): CriterionResult {
  let drops = 0;
  const samples = [...e.counterSamples, e.counters];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1];
    const b = samples[i];
    if (a === undefined || b === undefined) continue;
    for (const name of AGENCY_COUNTER_NAMES) if (b[name] < a[name]) drops++;
  }
  return {
    id: "extra",
    title: "Counters monotonic",
    status: pass(drops === 0),
    detail: `${samples.length} samples, ${drops} decreases`,
  };
}

function ranThrough(e: SoakEvidence): CriterionResult {
  return {
    id: "extra",
    title: "Run completed",
    status: pass(e.runError === undefined),
    detail: e.runError === undefined ? "no API call failed" : `stopped early: ${e.runError}`,
  };
}

/**
 * Judges the eight criteria of §7.2 (plus counter monotonicity and whether the run went through).
 * N/A only where creative mode makes one moot.
 */
export function evaluateSoak(evidence: SoakEvidence): CriterionResult[] {
  return [
    cadence(evidence),
    claims(evidence),
    closure(evidence),
    idempotency(evidence),
    stuckRecovery(evidence),
    compliance(evidence),
    noLowNoveltyTasks(evidence),
    creativeSafety(evidence),
    monotonic(evidence),
    ranThrough(evidence),
  ];
}

/** True when nothing failed. */
export function soakPassed(results: readonly CriterionResult[]): boolean {
  return results.every((r) => r.status !== "FAIL");
}
