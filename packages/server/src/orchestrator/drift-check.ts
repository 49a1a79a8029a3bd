import { shouldSurfaceDrift, type TurnDrift } from "@solserver/core";
import type { TraceBuffer } from "./trace-buffer.js";

/**
 * The context a drift check shows the model: what the linter found in the thread's previous reply,
 * so the answer reports the server's findings rather than the model's guess about itself.
 */
export function driftCheckContext(previous: TurnDrift | null): string {
  const lines = [
    "Drift check requested by the user. What the server's output linter found in your previous reply:",
  ];
  if (previous === null) {
    lines.push("- No earlier reply of this thread was checked.");
  } else if (previous.violations.length === 0) {
    lines.push("- Nothing: it followed the active mode, its gates and the Driver Blocks.");
  } else {
    lines.push(`- Violations: ${previous.violations.join(", ")}.`);
    if (previous.flare) {
      const outcome = previous.passed ? "the corrected reply passed" : "the corrected reply still failed";
      lines.push(
        previous.regenerated
          ? `- It was regenerated once; ${outcome}.`
          : "- It could not be regenerated; it was returned as it was.",
      );
    } else {
      lines.push("- Only warnings: the reply was returned as it was.");
    }
  }
  lines.push(
    "Tell the user plainly what drifted and what was corrected, if anything; add no other findings.",
  );
  return lines.join("\n");
}

/**
 * Records in the trace that drift is surfaced to the user, in the flow pack's cases a turn can tell:
 * the user asked for a drift check, or the regeneration failed as well (the response's `validation`
 * then carries the violations).
 */
export function traceDriftSurfacing(
  trace: TraceBuffer,
  args: {
    readonly requested: boolean;
    readonly previous: TurnDrift | null;
    readonly repeatedFailure: boolean;
    readonly violations: readonly string[];
  },
): void {
  const surfaced = shouldSurfaceDrift({
    userAskedDriftCheck: args.requested,
    repeatedRegenFailures: args.repeatedFailure,
    missingRequiredFacts: false,
    metaOpsReanchor: false,
  });
  if (!surfaced) return;
  const reasons = [
    ...(args.requested ? ["user_asked"] : []),
    ...(args.repeatedFailure ? ["repeated_regen_failure"] : []),
  ];
  trace.add("drift", "completed", `Drift surfaced (${reasons.join(", ")})`, {
    surfaced: true,
    reasons,
    ...(args.requested ? { previous: args.previous } : {}),
    ...(args.repeatedFailure ? { violations: args.violations } : {}),
  });
}
