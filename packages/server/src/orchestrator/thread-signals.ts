import type { ThreadStats, TurnStatsUpdate } from "@solserver/core";
import { estimateTokens } from "../providers/token-estimate.js";
import type { GenerationResult } from "./generation.js";

/** What the previous turns say for this turn's checkpoint policy (none on a stateless turn). */
export interface ThreadSignals {
  readonly previousModeLabel: string | undefined;
  /** The thread's known domain tags (routing step 1); empty when none. */
  readonly domainTags: readonly string[];
  /** The previous turn had a drift flare. */
  readonly driftFlare: boolean;
  /** Tokens exchanged in the turns after the last checkpoint capsule's turn, this message included. */
  readonly tokenEstimate: number | undefined;
}

/** The checkpoint inputs read from the thread's stats; a turn without thread context reads none. */
export function threadSignals(stats: ThreadStats, message: string, contextOff: boolean): ThreadSignals {
  if (contextOff) {
    return { previousModeLabel: undefined, domainTags: [], driftFlare: false, tokenEstimate: undefined };
  }
  return {
    previousModeLabel: stats.lastModeLabel ?? undefined,
    domainTags: stats.domainTags,
    driftFlare: stats.lastDrift?.flare === true,
    tokenEstimate: stats.churnTokens + estimateTokens(message),
  };
}

/**
 * What the thread's stats keep of this turn for the next one. A turn without thread context showed
 * its capsule to no thread state, so it does not restart the churn count.
 */
export function turnStatsUpdate(args: {
  readonly userMessage: string;
  readonly assistantMessage: string;
  readonly checkpointNeeded: boolean;
  /** The turn's ModeDecision domain flags: they become the thread's known domain tags. */
  readonly domainFlags: readonly string[];
  readonly contextOff: boolean;
  readonly gen: Pick<GenerationResult, "flare" | "regenerated" | "passed" | "driftCodes">;
}): TurnStatsUpdate {
  const { gen } = args;
  return {
    tokens: estimateTokens(args.userMessage) + estimateTokens(args.assistantMessage),
    checkpointed: args.checkpointNeeded && !args.contextOff,
    domainFlags: args.domainFlags,
    drift: {
      flare: gen.flare,
      regenerated: gen.regenerated,
      passed: gen.passed,
      violations: gen.driftCodes,
    },
  };
}
