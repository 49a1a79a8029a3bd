import { z } from "zod";
import { OptionalGoalKey } from "./goal-key-schema.js";
import { ExtractedGoalSource, GoalTagFailReason, GoalTagV1 } from "./goal-tag.js";
import { IntentLabel, IntentParse } from "./intent.js";

/** Longest thought text kept; longer sanitized output is cut. */
export const THOUGHT_TEXT_MAX = 20_000;

/** high: fresh LLM call or drive tick; medium: heartbeat-escape call; low: a dedup fallback. */
export const Novelty = z.enum(["high", "medium", "low"]);
export type Novelty = z.infer<typeof Novelty>;

/** Opaque client-supplied metadata: stored and shown, never read by the pipeline. */
export const ClientMetadata = z.record(
  z.string().max(64),
  z.union([z.string().max(500), z.number(), z.boolean(), z.null()]),
);
export type ClientMetadata = z.infer<typeof ClientMetadata>;

export const ThoughtMetadata = z
  .object({
    extractedGoal: GoalTagV1.optional(),
    extractedGoalSource: ExtractedGoalSource.optional(),
    extractedIntent: IntentLabel.optional(),
    intentParse: IntentParse.optional(),
    goalFailReason: GoalTagFailReason.optional(),
    /** `action:target`; never the empty string. */
    goalKey: OptionalGoalKey,
    /** Set on broadcast copies of low-novelty (dedup fallback) thoughts. */
    fallback: z.boolean().optional(),
    client: ClientMetadata.optional(),
  })
  .strict();
export type ThoughtMetadata = z.infer<typeof ThoughtMetadata>;

export const Thought = z
  .object({
    id: z.string().min(1).max(128),
    text: z.string().max(THOUGHT_TEXT_MAX),
    source: z.string().min(1).max(64),
    cognitiveSystem: z.string().min(1).max(64).optional(),
    novelty: Novelty,
    convertEligible: z.boolean().optional(),
    tags: z.array(z.string().min(1).max(64)).max(32),
    metadata: ThoughtMetadata,
    createdAtMs: z.number().int().min(0),
  })
  .strict();
export type Thought = z.infer<typeof Thought>;
