import { z } from "zod";

/** The ten built-in checkpoint types of cra-checkpoint-system.md. */
export const BUILTIN_CHECKPOINT_TYPES = [
  "session_start",
  "session_end",
  "keyword_match",
  "action_pre",
  "action_post",
  "risk_threshold",
  "time_interval",
  "count_interval",
  "explicit_request",
  "error_occurred",
] as const;
export const BuiltinCheckpointType = z.enum(BUILTIN_CHECKPOINT_TYPES);
export type BuiltinCheckpointType = z.infer<typeof BuiltinCheckpointType>;

/** Name of a plugin checkpoint type: lower snake case, not a built-in name. */
export const CustomCheckpointName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, "must be lower snake case, 1..64 characters")
  .refine((name) => !(BUILTIN_CHECKPOINT_TYPES as readonly string[]).includes(name), "is a built-in type");

/**
 * Default priorities (higher runs first). `action_pre` has two stages: the policy check (800)
 * blocks before the action's context is gathered (700). The spec's table gives no priority for
 * `error_occurred`; 650 puts error guidance after the gates but ahead of ordinary context.
 * `custom` is the default for plugin types that name none.
 */
export const CHECKPOINT_PRIORITIES = Object.freeze({
  session_start: 1000,
  risk_threshold: 900,
  action_pre_policy: 800,
  action_pre: 700,
  error_occurred: 650,
  keyword_match: 600,
  time_interval: 500,
  count_interval: 400,
  explicit_request: 300,
  custom: 200,
  action_post: 100,
  session_end: 0,
} as const);

/** The spec's priority table as rows, highest first. */
export const CHECKPOINT_PRIORITY_TABLE: ReadonlyArray<{
  readonly priority: number;
  readonly type: string;
  readonly stage?: "policy" | "context";
  readonly reason: string;
}> = Object.freeze([
  { priority: 1000, type: "session_start", reason: "Must run first" },
  { priority: 900, type: "risk_threshold", reason: "Security first" },
  { priority: 800, type: "action_pre", stage: "policy", reason: "Block before context" },
  { priority: 700, type: "action_pre", stage: "context", reason: "Context for action" },
  { priority: 650, type: "error_occurred", reason: "Error guidance after the gates" },
  { priority: 600, type: "keyword_match", reason: "Relevant context" },
  { priority: 500, type: "time_interval", reason: "Periodic refresh" },
  { priority: 400, type: "count_interval", reason: "Periodic check" },
  { priority: 300, type: "explicit_request", reason: "On-demand" },
  { priority: 200, type: "custom", reason: "Plugin checkpoints" },
  { priority: 100, type: "action_post", reason: "Record after" },
  { priority: 0, type: "session_end", reason: "Must run last" },
]);

/** Events an agent (through the server) reports to the evaluator (api.md §3 Checkpoints). */
export const CHECKPOINT_EVENT_TYPES = [
  "session_start",
  "input",
  "action_pre",
  "action_post",
  "error",
  "session_end",
  "explicit_request",
] as const;
export const CheckpointEventType = z.enum(CHECKPOINT_EVENT_TYPES);
export type CheckpointEventType = z.infer<typeof CheckpointEventType>;

/** The TRACE event each built-in checkpoint records (the spec's table). */
export const CHECKPOINT_TRACE_EVENTS = Object.freeze({
  session_start: "session_started",
  session_end: "session_ended",
  keyword_match: "context_injected",
  action_pre: "action_attempted",
  action_post: "action_completed",
  risk_threshold: "risk_checkpoint",
  error_occurred: "error_handled",
} as const);

/** The TRACE event types of the spec's table. */
export const CHECKPOINT_TRACE_EVENT_TYPES = [
  "session_started",
  "session_ended",
  "context_injected",
  "action_attempted",
  "action_completed",
  "risk_checkpoint",
  "error_handled",
] as const;

/**
 * Event types the engine adds where the spec's table is silent: interval checkpoints, on-demand
 * requests reuse `context_injected`; budget skips, failing handlers and plugin checkpoints that
 * record nothing themselves get these.
 */
export const CHECKPOINT_EXTRA_TRACE_EVENT_TYPES = [
  "interval_checkpoint",
  "checkpoint_skipped",
  "checkpoint_failed",
  "custom_checkpoint",
] as const;

/** How a context block is injected: at session start, on keyword/action match, only on request, or never. */
export const CONTEXT_INJECT_MODES = ["always", "on_match", "on_request", "never"] as const;
export const ContextInjectMode = z.enum(CONTEXT_INJECT_MODES);
export type ContextInjectMode = z.infer<typeof ContextInjectMode>;

/** `CheckpointType` of cra-checkpoint-system.md: a built-in type or a registered custom one. */
export type CheckpointType = BuiltinCheckpointType | (string & {});
