import type { Task } from "@solserver/core";
import type { ThoughtEntry } from "@solserver/server";
import { SPEC_STUCK_TIMEOUT_MS } from "./spec-rules.js";

/** The stall classes of the agency contract §7.3, with its names. */
export const STALL_CLASSES = [
  "unplannable",
  "blocked_reason",
  "executor_unavailable",
  "goalKey_missing",
  "convertEligible_gate",
  "stuck_pending",
] as const;
export type StallClass = (typeof STALL_CLASSES)[number];

/** One classified stall: a task that did not reach a terminal state, or a thought that should have become one. */
export interface Stall {
  readonly stallClass: StallClass;
  /** The task (or, for convertEligible_gate, the thought) concerned. */
  readonly id: string;
  readonly detail: string;
  /** The task the soak's executor leaves pending on purpose (criterion 5). */
  readonly deliberate: boolean;
}

/** What the taxonomy is judged on, taken at the end of a run. */
export interface StallEvidence {
  readonly tasks: readonly Task[];
  readonly thoughts: readonly ThoughtEntry[];
  /** Ids of tasks an executor poll listed as pending (it saw them). */
  readonly seenByExecutor: ReadonlySet<string>;
  /** Open tasks the world has no plan route for, with the world's reason. */
  readonly noPlanRoute: ReadonlyMap<string, string>;
  /** Thoughts the soak sent with `convertEligible: true`. */
  readonly sentEligible: ReadonlySet<string>;
  readonly stalledTaskId: string | null;
  readonly worldEndMs: number;
}

export interface StallReport {
  readonly stalls: readonly Stall[];
  /** Open tasks that are neither stuck nor blocked: still moving, or younger than 5 minutes. */
  readonly inFlight: readonly string[];
}

const TERMINAL = new Set(["completed", "failed"]);

function classifyTask(task: Task, e: StallEvidence): { stallClass: StallClass; detail: string } | null {
  const ageMs = e.worldEndMs - task.metadata.createdAt;
  const age = `${(ageMs / 60_000).toFixed(1)} min`;
  const state = `${task.status}, progress ${task.progress} after ${age}`;
  const { blockedReason, blockedAt } = task.metadata;
  if (task.status === "blocked" || blockedReason !== undefined) {
    const stamped = blockedAt === undefined ? "; blockedAt not stamped" : "";
    return {
      stallClass: "blocked_reason",
      detail: `${state}: ${blockedReason ?? "no blockedReason"}${stamped}`,
    };
  }
  if (task.metadata.goalKey === undefined) {
    return { stallClass: "goalKey_missing", detail: `${state}; stored without a goalKey` };
  }
  const noRoute = e.noPlanRoute.get(task.id);
  if (noRoute !== undefined) return { stallClass: "unplannable", detail: `${state}: ${noRoute}` };
  // Stuck in the contract's sense (§3.2): 0 progress for 5 minutes or more.
  if (task.progress > 0 || ageMs < SPEC_STUCK_TIMEOUT_MS) return null;
  if (task.status === "pending" && !e.seenByExecutor.has(task.id)) {
    return { stallClass: "executor_unavailable", detail: `${state}; no executor poll ever listed it` };
  }
  const seen =
    task.status === "pending" ? "; an executor listed it but never claimed it" : "; claimed, no progress";
  return { stallClass: "stuck_pending", detail: `${state}${seen}` };
}

/**
 * Classifies what did not reach a terminal state by the contract's stall taxonomy (§7.3): every
 * task still pending, active or blocked (first match: blocked_reason, goalKey_missing,
 * unplannable, then, for 0 progress over 5 minutes, executor_unavailable when no executor poll
 * listed it, else stuck_pending), and every thought that should have been convertible but was
 * refused as not eligible (convertEligible_gate: drive-tick thoughts, and non-low-novelty thoughts
 * the soak sent with convertEligible true). Open tasks that are not stalled are `inFlight`.
 */
export function classifyStalls(e: StallEvidence): StallReport {
  const stalls: Stall[] = [];
  const inFlight: string[] = [];
  for (const task of e.tasks) {
    if (TERMINAL.has(task.status)) continue;
    const found = classifyTask(task, e);
    if (found === null) inFlight.push(task.id);
    else stalls.push({ ...found, id: task.id, deliberate: task.id === e.stalledTaskId });
  }
  for (const { thought, decision } of e.thoughts) {
    if (decision !== "blocked_not_eligible" || thought.novelty === "low") continue;
    if (thought.source !== "drive-tick" && !e.sentEligible.has(thought.id)) continue;
    stalls.push({
      stallClass: "convertEligible_gate",
      id: thought.id,
      detail: `${thought.source} thought (novelty ${thought.novelty}, convertEligible ${String(thought.convertEligible)}) refused as not eligible`,
      deliberate: false,
    });
  }
  return { stalls, inFlight };
}

/** Report lines: one per stall class that occurred, then the in-flight count. */
export function formatStalls(report: StallReport): string[] {
  const lines: string[] = [];
  for (const stallClass of STALL_CLASSES) {
    const found = report.stalls.filter((s) => s.stallClass === stallClass);
    if (found.length === 0) continue;
    const shown = found
      .slice(0, 5)
      .map((s) => `${s.id} (${s.detail})${s.deliberate ? " [deliberate: left pending by the soak]" : ""}`);
    const more = found.length > 5 ? ` and ${found.length - 5} more` : "";
    lines.push(`stall ${stallClass}: ${found.length}: ${shown.join("; ")}${more}`);
  }
  if (lines.length === 0) lines.push("stalls: none");
  lines.push(`in flight (open, not stalled): ${report.inFlight.length}`);
  return lines;
}
