import { type DriveWorld, situationBands, type Thought } from "@solserver/core";

/** `cognitiveSystem` of the fallback thought recorded when a situation signature repeats. */
export const SIGNATURE_FALLBACK_SYSTEM = "signature-dedup";

/**
 * The low-novelty fallback thought of a repeated situation (contract §4.1, §4.2): recorded, never
 * converted (`convertEligible: false`), broadcast at the low-novelty rate. It says the situation
 * in the bands the signature compares, so the history shows why no model was asked.
 */
export function signatureFallbackThought(
  world: DriveWorld,
  at: { readonly id: string; readonly nowMs: number },
): Thought {
  const b = situationBands(world);
  return {
    id: at.id,
    text: `Nothing has changed since I last thought about this (health ${b.health}, food ${b.food}, hostiles ${b.hostiles}, ${b.time}).`,
    source: "generator",
    cognitiveSystem: SIGNATURE_FALLBACK_SYSTEM,
    novelty: "low",
    convertEligible: false,
    tags: ["generator", "fallback", "signature-dedup"],
    metadata: {},
    createdAtMs: at.nowMs,
  };
}
