import { z } from "zod";
import { ActionNeeded } from "../contracts/action.js";
import { CheckpointPolicyDecisionKind } from "./atlas/schema.js";
import { RiskTier } from "./risk.js";
import { CheckpointEventType } from "./types.js";

/** An action an agent is about to take or has taken. */
export const CheckpointAction = z
  .object({
    type: z.string().min(1).max(128),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type CheckpointAction = z.infer<typeof CheckpointAction>;

/** Largest `input` an event may carry (regex and fuzzy matching scan only the first 20,000). */
export const MAX_CHECKPOINT_INPUT = 100_000;

/** The spec's AgentInput: what the agent sent, which handlers read as `input.content`. */
export const AgentInput = z.object({ content: z.string().max(MAX_CHECKPOINT_INPUT) });
export type AgentInput = z.infer<typeof AgentInput>;

/** Input text given either as a string or as an AgentInput; parses to the text. */
export const AgentInputText = z.union([
  z.string().max(MAX_CHECKPOINT_INPUT),
  AgentInput.transform((input) => input.content),
]);

/** One event reported to the evaluator; `action_pre` and `action_post` need an `action`. */
export const CheckpointEvent = z
  .object({
    type: CheckpointEventType,
    // The spec's AgentInput is read as `input.content`; that object form is accepted and flattened.
    input: z.preprocess(
      (value) =>
        typeof value === "object" &&
        value !== null &&
        typeof (value as { content?: unknown }).content === "string"
          ? (value as { content: string }).content
          : value,
      z.string().max(MAX_CHECKPOINT_INPUT).optional(),
    ),
    action: CheckpointAction.optional(),
  })
  .strict()
  .superRefine((event, ctx) => {
    if ((event.type === "action_pre" || event.type === "action_post") && !event.action) {
      ctx.addIssue({ code: "custom", path: ["action"], message: `a ${event.type} event needs an action` });
    }
  });
export type CheckpointEvent = z.infer<typeof CheckpointEvent>;

/** Body of `POST /v1/checkpoints/evaluate`. */
export const CheckpointEvaluateRequest = z
  .object({ sessionId: z.string().min(1).max(128), event: CheckpointEvent })
  .strict();
export type CheckpointEvaluateRequest = z.infer<typeof CheckpointEvaluateRequest>;

/** A policy decision about an action; `reason` becomes the block reason on denial. */
export const CheckpointPolicyDecision = z
  .object({
    decision: CheckpointPolicyDecisionKind,
    reason: z.string().min(1).max(500),
    policy_id: z.string().min(1).max(128).optional(),
    risk_tier: RiskTier.optional(),
  })
  .strict();
export type CheckpointPolicyDecision = z.infer<typeof CheckpointPolicyDecision>;

/** A TRACE event produced by a checkpoint, ready for the server's hash-chained trace. */
export const CheckpointTraceEvent = z
  .object({
    eventType: z.string().min(1).max(64),
    checkpointType: z.string().min(1).max(64),
    priority: z.number(),
    sessionId: z.string().min(1).max(128),
    ts: z.iso.datetime({ offset: true }),
    payload: z.record(z.string(), z.unknown()),
  })
  .strict();
export type CheckpointTraceEvent = z.infer<typeof CheckpointTraceEvent>;

export const FiredCheckpoint = z.object({ type: z.string().min(1).max(64), priority: z.number() }).strict();
export type FiredCheckpoint = z.infer<typeof FiredCheckpoint>;

/**
 * Answer of one evaluation, 1:1 the `POST /v1/checkpoints/evaluate` response of api.md §3
 * (`modifiedInput` appears only when a plugin handler rewrote the input).
 */
export const CheckpointEvaluation = z
  .object({
    fired: z.array(FiredCheckpoint),
    injectContext: z.array(z.string()),
    continue: z.boolean(),
    blockReason: z.string().min(1).max(500).optional(),
    policyDecision: CheckpointPolicyDecision.optional(),
    requireConfirmation: ActionNeeded.optional(),
    traceEvents: z.array(CheckpointTraceEvent),
    modifiedInput: z.string().max(MAX_CHECKPOINT_INPUT).optional(),
  })
  .strict();
export type CheckpointEvaluation = z.infer<typeof CheckpointEvaluation>;

/** Response body of `POST /v1/checkpoints/evaluate` (the same schema as CheckpointEvaluation). */
export const CheckpointEvaluateResponse = CheckpointEvaluation;
export type CheckpointEvaluateResponse = CheckpointEvaluation;

/** `PolicyDecision` of cra-checkpoint-system.md: same as `CheckpointPolicyDecision`. */
export const PolicyDecision = CheckpointPolicyDecision;
export type PolicyDecision = CheckpointPolicyDecision;
