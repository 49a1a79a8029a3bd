import { z } from "zod";
import { ConfidenceBucket } from "./signals.js";

export const AffectPhase = z.enum(["rising", "peak", "downshift", "settled"]);
export type AffectPhase = z.infer<typeof AffectPhase>;

export const IntensityBucket = z.enum(["low", "med", "high"]);
export type IntensityBucket = z.infer<typeof IntensityBucket>;

/** One affect reading anchored to the message that ended it. */
export const AffectPoint = z
  .object({
    endMessageId: z.string().min(1),
    label: z.string().min(1).max(64),
    intensity: z.number().min(0).max(1),
    confidence: ConfidenceBucket,
    source: z.enum(["sentinel", "device_hint", "server", "model"]),
  })
  .strict();
export type AffectPoint = z.infer<typeof AffectPoint>;

export const AffectRollup = z
  .object({
    phase: AffectPhase,
    intensityBucket: IntensityBucket,
    updatedAt: z.iso.datetime({ offset: true }),
  })
  .strict();
export type AffectRollup = z.infer<typeof AffectRollup>;

export const ThreadMementoAffect = z
  .object({
    points: z.array(AffectPoint).max(5),
    rollup: AffectRollup,
  })
  .strict();
export type ThreadMementoAffect = z.infer<typeof ThreadMementoAffect>;
