import type { ModeDecision, RigorConfig } from "../contracts/mode-decision.js";
import type { ModeDefinition } from "./config.js";
import { ROUTER_VERSION } from "./version.js";

const MAX_REASONS = 16;
const MAX_REASON_LENGTH = 200;
const MAX_FLAGS = 32;
const NORMAL_RIGOR: RigorConfig = { level: "normal", gates: [] };

export interface DecisionParts {
  readonly mode: ModeDefinition;
  readonly step: 0 | 1 | 2;
  readonly confidence: number;
  readonly reasons: readonly string[];
  /** High-rigor domains detected in the message, added to the mode's own flags. */
  readonly domains?: readonly string[];
}

/** Builds a schema-valid ModeDecision from a mode and the ladder's evidence. */
export function makeDecision(parts: DecisionParts): ModeDecision {
  const rigor = parts.mode.rigor ?? NORMAL_RIGOR;
  const domains = parts.domains ?? [];
  const domainFlags = [...new Set([...(parts.mode.domainFlags ?? []), ...domains])].slice(0, MAX_FLAGS);
  return {
    modeLabel: parts.mode.label,
    domainFlags,
    rigorConfig: { level: rigor.level, gates: [...rigor.gates] },
    clusterIds: [...(parts.mode.clusterIds ?? [])],
    // Only the rigor part of the checkpoint policy lives here; the rest is applied downstream.
    checkpointNeeded: rigor.level === "high" || domains.length > 0,
    confidence: clamp01(parts.confidence),
    reasons: clipReasons(parts.reasons),
    version: ROUTER_VERSION,
    step: parts.step,
  };
}

/** Keeps at most 16 non-empty reasons of at most 200 characters (the ModeDecision limits). */
export function clipReasons(reasons: readonly string[]): string[] {
  return reasons
    .map((reason) => reason.trim())
    .filter((reason) => reason.length > 0)
    .map((reason) =>
      reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason,
    )
    .slice(0, MAX_REASONS);
}

/** Clamps to [0, 1] and rounds to 4 decimals so decisions print and compare stably. */
export function clamp01(value: number): number {
  if (!Number.isFinite(value)) return value > 0 ? 1 : 0;
  return Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;
}
