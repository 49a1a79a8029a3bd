import type { IdGenerator } from "../clock/clock.js";
import { SolError } from "../errors.js";
import type { Issue } from "../result.js";
import { issuesFromZod } from "../validation/zod-issues.js";
import type { CanonicalAction } from "./goal-actions.js";
import { canonicalGoalKey } from "./goal-key.js";
import { extractGoalTag, type GoalTagFailReason } from "./goal-tag.js";
import type { Task } from "./task.js";
import { buildNewTask, finalizeNewTask } from "./task-factory.js";
import { findSuppressingTask, STUCK_TIMEOUT_MS, taskAgeMs, taskGoalKey } from "./task-liveness.js";
import { Thought } from "./thought.js";

/** Goal actions that become tasks, and the task type each becomes. Others are unroutable. */
export const ACTION_TO_TASK_TYPE: Readonly<Partial<Record<CanonicalAction, string>>> = Object.freeze({
  collect: "gathering",
  mine: "mining",
  craft: "crafting",
  smelt: "smelting",
  build: "building",
  explore: "exploration",
  navigate: "navigation",
  find: "exploration",
  eat: "survival",
});

/** Quantity used when a goal tag carries no amount. */
export const DEFAULT_GOAL_AMOUNTS: Readonly<Record<CanonicalAction, number>> = Object.freeze({
  collect: 8,
  mine: 8,
  craft: 1,
  smelt: 1,
  build: 1,
  explore: 1,
  navigate: 1,
  find: 1,
  eat: 1,
  check: 1,
  cancel: 1,
  pause: 1,
  resume: 1,
  prioritize: 1,
});

/** What the converter did with one thought; every thought gets exactly one decision. */
export type ConversionDecision =
  | {
      readonly decision: "created";
      readonly thoughtId: string;
      readonly goalKey: string;
      readonly task: Task;
    }
  | { readonly decision: "invalid_thought"; readonly issues: readonly Issue[] }
  | { readonly decision: "blocked_not_eligible"; readonly thoughtId: string }
  | { readonly decision: "blocked_no_goal"; readonly thoughtId: string }
  | {
      readonly decision: "dropped_sanitizer";
      readonly thoughtId: string;
      readonly failReason: GoalTagFailReason;
    }
  | { readonly decision: "blocked_unroutable"; readonly thoughtId: string; readonly action: string }
  | {
      readonly decision: "suppressed_dedup";
      readonly thoughtId: string;
      readonly goalKey: string;
      readonly existingTaskId: string;
    };

export type ConversionDecisionKind = ConversionDecision["decision"];

export interface ConvertOptions {
  /** Current open and recent tasks (the server reads them from its TaskStore). */
  readonly tasks: readonly Task[];
  readonly nowMs: number;
  /**
   * A task with the same goalKey created less than this long ago suppresses a new one, whatever
   * its status. 0..STUCK_TIMEOUT_MS, so a stuck task can still be replaced. Default 60000.
   */
  readonly dedupWindowMs?: number;
  /** Makes the new task's id (prefix `task`); injected so conversions are reproducible. */
  readonly ids: IdGenerator;
}

/** The default `dedupWindowMs`: one minute, as the server's SOL_AGENCY_DEDUP_WINDOW_MS. */
export const DEFAULT_CONVERT_DEDUP_WINDOW_MS = 60_000;

function titleFor(action: string, target: string, amount: number): string {
  const verb = action.charAt(0).toUpperCase() + action.slice(1);
  const what = target.replaceAll("_", " ");
  return (amount > 1 ? `${verb} ${amount} ${what}` : `${verb} ${what}`).slice(0, 200);
}

/**
 * Decides whether a thought becomes a task. Only `convertEligible: true` thoughts convert; the
 * goal is `metadata.extractedGoal` or else a tag in the text; it must map to a task type; its
 * goalKey (never empty) must not be held by an open, non-stuck task or a task created within
 * `dedupWindowMs`. The created task carries the goal, goalKey and a stamped origin.
 */
export function convertThoughtToTask(input: unknown, options: ConvertOptions): ConversionDecision {
  const dedupWindowMs = options.dedupWindowMs ?? DEFAULT_CONVERT_DEDUP_WINDOW_MS;
  if (!Number.isInteger(dedupWindowMs) || dedupWindowMs < 0 || dedupWindowMs > STUCK_TIMEOUT_MS) {
    throw new SolError("invalid_input", `dedupWindowMs must be an integer in 0..${STUCK_TIMEOUT_MS}`);
  }
  if (typeof options.ids !== "function") {
    throw new SolError("invalid_input", "ids must be an IdGenerator ((prefix) => string)");
  }
  if (!Array.isArray(options.tasks) || !Number.isFinite(options.nowMs)) {
    throw new SolError("invalid_input", "tasks must be an array and nowMs a number");
  }
  const parsed = Thought.safeParse(input);
  if (!parsed.success) return { decision: "invalid_thought", issues: issuesFromZod(parsed.error) };
  const thought = parsed.data;
  const thoughtId = thought.id;
  if (thought.convertEligible !== true) return { decision: "blocked_not_eligible", thoughtId };

  let goal = thought.metadata.extractedGoal;
  if (goal === undefined) {
    const fromText = extractGoalTag(thought.text);
    if (fromText.goal !== null) goal = fromText.goal;
    else if (fromText.failReason === undefined || fromText.failReason === "no_tag") {
      return { decision: "blocked_no_goal", thoughtId };
    } else return { decision: "dropped_sanitizer", thoughtId, failReason: fromText.failReason };
  }
  const taskType = ACTION_TO_TASK_TYPE[goal.action];
  if (taskType === undefined) return { decision: "blocked_unroutable", thoughtId, action: goal.action };

  const goalKey = canonicalGoalKey(goal.action, goal.target) || thought.metadata.goalKey || undefined;
  if (goalKey === undefined) return { decision: "blocked_no_goal", thoughtId };
  const holder =
    findSuppressingTask(options.tasks, goalKey, options.nowMs) ??
    options.tasks.find(
      (t) => taskGoalKey(t) === goalKey && (taskAgeMs(t, options.nowMs) ?? 0) < dedupWindowMs,
    );
  if (holder !== undefined)
    return { decision: "suppressed_dedup", thoughtId, goalKey, existingTaskId: holder.id };

  const amount = goal.amount ?? DEFAULT_GOAL_AMOUNTS[goal.action];
  const source = thought.metadata.extractedGoalSource;
  const built = buildNewTask(
    {
      type: taskType,
      title: titleFor(goal.action, goal.target, amount),
      parameters: {
        action: goal.action,
        target: goal.target,
        amount,
        ...(goal.targetId === undefined ? {} : { targetId: goal.targetId }),
      },
      tags: thought.tags,
      category: taskType,
      metadata: {
        goalKey,
        extractedGoal: goal,
        ...(source === undefined ? {} : { extractedGoalSource: source }),
        ...(thought.metadata.extractedIntent === undefined
          ? {}
          : { extractedIntent: thought.metadata.extractedIntent }),
        sourceThoughtId: thoughtId,
        convertEligible: true,
      },
    },
    { nowMs: options.nowMs, ids: options.ids },
  );
  if (!built.ok) {
    // Every field above comes from a validated thought, so this is a bug, not bad input.
    throw new SolError("internal", "converter built an invalid task", { details: built.issues });
  }
  const task = finalizeNewTask(
    built.value,
    {
      kind: "thought",
      thoughtId,
      source: thought.source,
      ...(thought.cognitiveSystem === undefined ? {} : { cognitiveSystem: thought.cognitiveSystem }),
    },
    { nowMs: options.nowMs },
  );
  return { decision: "created", thoughtId, goalKey, task };
}
