import {
  detectReanchorRequest,
  type ModeDecision,
  shouldSurfaceDrift,
  type TurnDrift,
  type Violation,
} from "@solserver/core";
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

/** Heartbeat triggers that re-anchor the thread, as the route phase records them in the reasons. */
const REANCHOR_REASONS = [
  "checkpoint: user_reanchor",
  "checkpoint: explicit_command",
  "checkpoint: drift_flare",
];
const COMMAND = /^\/(?:checkpoint|anchor)(?:\s|$)/;

/**
 * A meta-ops re-anchor: the routed mode allows meta-ops (`metaOps` in its mode pack entry) and this
 * turn's checkpoint re-anchors the thread: the user asks to re-anchor or what is decided, commands a
 * checkpoint, or a drift flare triggered it.
 */
export function isMetaOpsReanchor(
  modes: readonly { readonly label: string; readonly metaOps?: boolean | undefined }[],
  modeDecision: ModeDecision,
  message: string,
): boolean {
  if (!modeDecision.checkpointNeeded) return false;
  const mode = modes.find((m) => m.label === modeDecision.modeLabel);
  if (mode?.metaOps !== true) return false;
  return (
    detectReanchorRequest(message) ||
    COMMAND.test(message.trim().toLowerCase()) ||
    modeDecision.reasons.some((r) => REANCHOR_REASONS.includes(r))
  );
}

/** What a meta-ops re-anchor asks of the reply: say openly where the thread stands. */
export const REANCHOR_CONTEXT =
  "Re-anchor openly: before answering, tell the user in one or two lines where the thread stands (its arc, what is decided and what is open), from the checkpoint capsule.";

/**
 * Records in the trace that drift is surfaced to the user, in the flow pack's four cases: the user
 * asked for a drift check, the regeneration failed as well (the response's `validation` then carries
 * the violations), the reply asks the user for required facts it lacks (`validation` names them), or a
 * meta-ops re-anchor.
 */
export function traceDriftSurfacing(
  trace: TraceBuffer,
  args: {
    readonly requested: boolean;
    readonly previous: TurnDrift | null;
    readonly repeatedFailure: boolean;
    readonly violations: readonly string[];
    readonly missingFacts: Violation | null;
    readonly metaOpsReanchor: boolean;
  },
): void {
  const surfaced = shouldSurfaceDrift({
    userAskedDriftCheck: args.requested,
    repeatedRegenFailures: args.repeatedFailure,
    missingRequiredFacts: args.missingFacts !== null,
    metaOpsReanchor: args.metaOpsReanchor,
  });
  if (!surfaced) return;
  const reasons = [
    ...(args.requested ? ["user_asked"] : []),
    ...(args.repeatedFailure ? ["repeated_regen_failure"] : []),
    ...(args.missingFacts ? ["missing_required_facts"] : []),
    ...(args.metaOpsReanchor ? ["meta_ops_reanchor"] : []),
  ];
  trace.add("drift", "completed", `Drift surfaced (${reasons.join(", ")})`, {
    surfaced: true,
    reasons,
    ...(args.requested ? { previous: args.previous } : {}),
    ...(args.repeatedFailure ? { violations: args.violations } : {}),
    ...(args.missingFacts ? { missing: args.missingFacts.message } : {}),
  });
}
