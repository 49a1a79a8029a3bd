import { z } from "zod";

export const RoutingStep = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type RoutingStep = z.infer<typeof RoutingStep>;

export const RigorConfig = z
  .object({
    level: z.enum(["low", "normal", "high"]),
    gates: z.array(z.string().min(1).max(64)).max(32),
  })
  .strict();
export type RigorConfig = z.infer<typeof RigorConfig>;

/** Output of the routing ladder: the single active mode and the gates it enables. */
export const ModeDecision = z
  .object({
    modeLabel: z.string().min(1).max(64),
    domainFlags: z.array(z.string().min(1).max(64)).max(32),
    rigorConfig: RigorConfig,
    clusterIds: z.array(z.string().min(1).max(64)).max(32),
    checkpointNeeded: z.boolean(),
    confidence: z.number().min(0).max(1),
    reasons: z.array(z.string().min(1).max(200)).max(16),
    version: z.string().min(1).max(64),
    step: RoutingStep,
  })
  .strict();
export type ModeDecision = z.infer<typeof ModeDecision>;
