import { z } from "zod";
import { jsonDepthWithin } from "./json-depth.js";
import { ConfidenceBucket, ThreadMementoSignalKind } from "./signals.js";

const Item = z.string().min(1).max(200);

/**
 * Deepest nesting of a proposed action's payload: the server's limit for a whole request body, so a
 * checkpoint confirmation built from a request always fits. A payload from model output is checked by
 * nothing else, and it is hashed and stored recursively: a reply nesting it 20,000 levels deep
 * overflowed the stack and failed the turn with a 500.
 */
export const MAX_ACTION_PAYLOAD_DEPTH = 128;

export const EnvelopeShape = z
  .object({
    arc: z.string().min(1).max(200),
    active: z.array(Item).max(50),
    parked: z.array(Item).max(50),
    decisions: z.array(Item).max(50),
    next: z.array(Item).max(50),
  })
  .strict();
export type EnvelopeShape = z.infer<typeof EnvelopeShape>;

/** Affect as a model reports it; normalised later (label allowlist, clamped intensity). */
export const EnvelopeAffectSignal = z
  .object({
    label: z.string().min(1).max(64),
    intensity: z.number(),
    confidence: z.union([ConfidenceBucket, z.number().min(0).max(1)]),
  })
  .strict();
export type EnvelopeAffectSignal = z.infer<typeof EnvelopeAffectSignal>;

export const EnvelopeSignal = z
  .object({
    kind: ThreadMementoSignalKind,
    confidence: z.union([ConfidenceBucket, z.number().min(0).max(1)]),
    summary: z.string().max(180).optional(),
  })
  .strict();
export type EnvelopeSignal = z.infer<typeof EnvelopeSignal>;

export const EnvelopeActionNeeded = z
  .object({
    action_kind: z.string().min(1).max(64),
    action_label: z.string().min(1).max(80),
    action_summary_bullets: z.array(z.string().min(1).max(200)).min(1).max(3),
    action_target: z.string().min(1).max(80).optional(),
    action_data_used: z.string().min(1).max(200).optional(),
    action_why: z.string().min(1).max(200).optional(),
    action_payload: z
      .record(z.string(), z.unknown())
      .refine((payload) => jsonDepthWithin(payload, MAX_ACTION_PAYLOAD_DEPTH), {
        message: `action_payload may nest at most ${MAX_ACTION_PAYLOAD_DEPTH} levels deep`,
      })
      .optional(),
  })
  .strict();
export type EnvelopeActionNeeded = z.infer<typeof EnvelopeActionNeeded>;

/** Model output envelope v1 (api.md §4): the one JSON object the prompt asks the model for. */
export const ModelOutputEnvelope = z
  .object({
    assistant_text: z.string(),
    meta: z
      .object({
        shape: EnvelopeShape.optional(),
        affect_signal: EnvelopeAffectSignal.optional(),
        signals: z.array(EnvelopeSignal).max(16).optional(),
        action_needed: z.array(EnvelopeActionNeeded).max(5).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ModelOutputEnvelope = z.infer<typeof ModelOutputEnvelope>;
