import { z } from "zod";
import { ExtractedGoalSource, GoalTagV1 } from "./goal-tag.js";
import { IntentLabel } from "./intent.js";

export const TaskStatus = z.enum(["pending", "active", "completed", "failed", "blocked"]);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** Statuses in which a task still holds its goal (idempotency and dedup look only at these). */
export const OPEN_TASK_STATUSES: readonly TaskStatus[] = ["pending", "active"];

const EpochMs = z.number().int().min(0);

/** Where a task came from; stamped once by `finalizeNewTask()` and never changed afterwards. */
export const TaskOrigin = z
  .object({
    kind: z.enum(["thought", "api", "system"]),
    thoughtId: z.string().min(1).max(128).optional(),
    cognitiveSystem: z.string().min(1).max(64).optional(),
    source: z.string().min(1).max(64).optional(),
    stampedAtMs: EpochMs,
  })
  .strict();
export type TaskOrigin = z.infer<typeof TaskOrigin>;

export const TaskMetadata = z
  .object({
    createdAt: EpochMs,
    updatedAt: EpochMs,
    retryCount: z.number().int().min(0),
    maxRetries: z.number().int().min(0).max(100),
    childTaskIds: z.array(z.string().min(1).max(128)),
    tags: z.array(z.string().min(1).max(64)).max(32),
    category: z.string().min(1).max(64),
    solver: z.string().min(1).max(64).nullable(),
    /** `action:target` idempotency key; never the empty string. */
    goalKey: z.string().min(1).max(200).optional(),
    origin: TaskOrigin.optional(),
    extractedGoal: GoalTagV1.optional(),
    extractedGoalSource: ExtractedGoalSource.optional(),
    extractedIntent: IntentLabel.optional(),
    sourceThoughtId: z.string().min(1).max(128).optional(),
    parentTaskId: z.string().min(1).max(128).optional(),
    convertEligible: z.boolean().optional(),
    blockedReason: z.string().min(1).max(200).optional(),
    blockedAt: EpochMs.optional(),
  })
  .strict();
export type TaskMetadata = z.infer<typeof TaskMetadata>;

export const TaskParameters = z.record(
  z.string().max(64),
  z.union([z.string().max(200), z.number(), z.boolean()]),
);
export type TaskParameters = z.infer<typeof TaskParameters>;

export const Task = z
  .object({
    id: z.string().min(1).max(128),
    type: z.string().min(1).max(64),
    title: z.string().min(1).max(200),
    description: z.string().max(2000).optional(),
    status: TaskStatus,
    priority: z.number().min(0).max(1),
    progress: z.number().min(0).max(1),
    parameters: TaskParameters,
    metadata: TaskMetadata,
  })
  .strict();
export type Task = z.infer<typeof Task>;
