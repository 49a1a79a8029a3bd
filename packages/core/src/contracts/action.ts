import { z } from "zod";

export const ActionStatus = z.enum(["proposed", "approved", "executing", "succeeded", "failed", "deferred"]);
export type ActionStatus = z.infer<typeof ActionStatus>;

/** What the Breakpoint Chip needs to ask for permission (breakpoint-chip-permission-gate.md). */
export const ActionNeeded = z
  .object({
    request_id: z.string().min(1).max(128),
    action_needed: z.literal(true),
    action_id: z.string().min(1).max(128),
    action_label: z.string().min(1).max(80),
    action_kind: z.string().min(1).max(64),
    action_summary_bullets: z.array(z.string().min(1).max(200)).min(1).max(3),
    action_target: z.string().min(1).max(80).optional(),
    action_data_used: z.string().min(1).max(200).optional(),
    action_why: z.string().min(1).max(200).optional(),
    action_payload_preview: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type ActionNeeded = z.infer<typeof ActionNeeded>;

export const ActionReceipt = z.object({ summary: z.string().min(1).max(500) }).strict();
export type ActionReceipt = z.infer<typeof ActionReceipt>;

export const ActionError = z.object({ reason: z.string().min(1).max(500) }).strict();
export type ActionError = z.infer<typeof ActionError>;

export const ExecuteActionInput = z
  .object({
    action_id: z.string().min(1).max(128),
    request_id: z.string().min(1).max(128),
  })
  .strict();
export type ExecuteActionInput = z.infer<typeof ExecuteActionInput>;

/** `GET /v1/actions/:actionId`: the chip's fields plus where the action stands (api.md §3). */
export const ActionView = ActionNeeded.extend({
  status: ActionStatus,
  receipt: ActionReceipt.optional(),
  error: ActionError.optional(),
}).strict();
export type ActionView = z.infer<typeof ActionView>;

/** `POST /v1/actions/execute` answer; the same request_id always gets the same one. */
export const ExecuteActionResult = z
  .object({
    action_id: z.string().min(1).max(128),
    status: ActionStatus,
    receipt: ActionReceipt.optional(),
    error: ActionError.optional(),
  })
  .strict();
export type ExecuteActionResult = z.infer<typeof ExecuteActionResult>;

/** `POST /v1/actions/:actionId/defer` answer ("Not now"). */
export const DeferActionResult = z.object({ status: z.literal("deferred") }).strict();
export type DeferActionResult = z.infer<typeof DeferActionResult>;
