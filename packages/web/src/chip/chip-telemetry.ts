import type { TelemetrySignal } from "../telemetry/telemetry.js";
import type { ChipEvent, ChipState } from "./chip-state.js";

/** The telemetry signal of an accepted chip transition, or null when it is not counted. */
export function telemetrySignalFor(
  prev: ChipState,
  event: ChipEvent,
  next: ChipState,
): TelemetrySignal | null {
  switch (event.type) {
    case "shown":
      return prev.shownAt === null ? { kind: "shown" } : null;
    case "auto_expand":
      return { kind: "autoexpanded" };
    case "approve":
    case "defer":
      return {
        kind: event.type === "approve" ? "approved" : "deferred",
        decisionMs: next.shownAt === null ? null : event.at - next.shownAt,
      };
    case "retry":
      return { kind: "retry" };
    case "succeed":
      return { kind: "success" };
    case "fail":
      return { kind: "failed" };
    default:
      return null;
  }
}
