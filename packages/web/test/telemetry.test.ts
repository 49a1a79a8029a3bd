import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { initialChipState, transitionChip } from "../src/chip/chip-state.js";
import { telemetrySignalFor } from "../src/chip/chip-telemetry.js";
import {
  applyTelemetry,
  decisionTimeSummary,
  emptyTelemetry,
  MAX_DECISION_SAMPLES,
  parseTelemetry,
  TELEMETRY_COUNTERS,
  type TelemetrySignal,
} from "../src/telemetry/telemetry.js";

describe("telemetry counters", () => {
  it("starts at zero with every counter of the spec", () => {
    expect(emptyTelemetry()).toEqual({
      breakpoint_shown_count: 0,
      breakpoint_autoexpanded_count: 0,
      breakpoint_approved_count: 0,
      breakpoint_deferred_count: 0,
      breakpoint_retry_count: 0,
      breakpoint_success_count: 0,
      breakpoint_failed_count: 0,
      time_to_decision_ms: [],
    });
  });

  it("counts each signal and records decision times for approve and defer", () => {
    let t = emptyTelemetry();
    t = applyTelemetry(t, { kind: "shown" });
    t = applyTelemetry(t, { kind: "approved", decisionMs: 1234.4 });
    t = applyTelemetry(t, { kind: "deferred", decisionMs: -5 });
    t = applyTelemetry(t, { kind: "deferred", decisionMs: null });
    expect(t.breakpoint_shown_count).toBe(1);
    expect(t.breakpoint_approved_count).toBe(1);
    expect(t.breakpoint_deferred_count).toBe(2);
    expect(t.time_to_decision_ms).toEqual([1234, 0]);
  });

  it("keeps only the newest decision samples", () => {
    let t = emptyTelemetry();
    for (let i = 0; i < MAX_DECISION_SAMPLES + 5; i++)
      t = applyTelemetry(t, { kind: "approved", decisionMs: i });
    expect(t.time_to_decision_ms.length).toBe(MAX_DECISION_SAMPLES);
    expect(t.time_to_decision_ms[0]).toBe(5);
    expect(t.breakpoint_approved_count).toBe(MAX_DECISION_SAMPLES + 5);
  });

  it("the counters add up to the number of signals (property)", () => {
    const signal: fc.Arbitrary<TelemetrySignal> = fc.oneof(
      fc.record({
        kind: fc.constantFrom(
          "shown" as const,
          "autoexpanded" as const,
          "retry" as const,
          "success" as const,
          "failed" as const,
        ),
      }),
      fc.record({
        kind: fc.constantFrom("approved" as const, "deferred" as const),
        decisionMs: fc.option(fc.nat(100_000), { nil: null }),
      }),
    );
    fc.assert(
      fc.property(fc.array(signal, { maxLength: 60 }), (signals) => {
        const t = signals.reduce(applyTelemetry, emptyTelemetry());
        const total = TELEMETRY_COUNTERS.reduce((sum, key) => sum + t[key], 0);
        expect(total).toBe(signals.length);
        const timed = signals.filter((s) => "decisionMs" in s && s.decisionMs !== null).length;
        expect(t.time_to_decision_ms.length).toBe(Math.min(timed, MAX_DECISION_SAMPLES));
        expect(parseTelemetry(JSON.parse(JSON.stringify(t)))).toEqual(t);
      }),
    );
  });

  it("reads a damaged stored snapshot leniently", () => {
    expect(parseTelemetry(null)).toEqual(emptyTelemetry());
    expect(parseTelemetry("x")).toEqual(emptyTelemetry());
    const t = parseTelemetry({
      breakpoint_shown_count: 3,
      breakpoint_retry_count: -1,
      time_to_decision_ms: [5, "a", 1.5, 7],
    });
    expect(t.breakpoint_shown_count).toBe(3);
    expect(t.breakpoint_retry_count).toBe(0);
    expect(t.time_to_decision_ms).toEqual([5, 7]);
  });

  it("summarises decision times by their median", () => {
    expect(decisionTimeSummary(emptyTelemetry())).toEqual({ count: 0, medianMs: null });
    const odd = { ...emptyTelemetry(), time_to_decision_ms: [30, 10, 20] };
    expect(decisionTimeSummary(odd)).toEqual({ count: 3, medianMs: 20 });
    const even = { ...emptyTelemetry(), time_to_decision_ms: [10, 40, 20, 30] };
    expect(decisionTimeSummary(even)).toEqual({ count: 4, medianMs: 25 });
  });
});

describe("chip transitions -> telemetry signals", () => {
  it("counts shown once and measures time to decision from it", () => {
    const fresh = initialChipState();
    const shown = transitionChip(fresh, { type: "shown", at: 1000 });
    if (!shown.ok) throw new Error("shown refused");
    expect(telemetrySignalFor(fresh, { type: "shown", at: 1000 }, shown.value)).toEqual({ kind: "shown" });
    expect(telemetrySignalFor(shown.value, { type: "shown", at: 2000 }, shown.value)).toBeNull();
    const approve = { type: "approve", requestId: "r", at: 3500 } as const;
    const approved = transitionChip(shown.value, approve);
    if (!approved.ok) throw new Error("approve refused");
    expect(telemetrySignalFor(shown.value, approve, approved.value)).toEqual({
      kind: "approved",
      decisionMs: 2500,
    });
  });

  it("maps retries and results, and leaves details toggles uncounted", () => {
    const s = initialChipState();
    expect(telemetrySignalFor(s, { type: "retry", requestId: "r" }, s)).toEqual({ kind: "retry" });
    expect(telemetrySignalFor(s, { type: "succeed", requestId: "r", summary: "x" }, s)).toEqual({
      kind: "success",
    });
    expect(telemetrySignalFor(s, { type: "fail", requestId: "r", reason: "x" }, s)).toEqual({
      kind: "failed",
    });
    expect(telemetrySignalFor(s, { type: "auto_expand" }, s)).toEqual({ kind: "autoexpanded" });
    expect(telemetrySignalFor(s, { type: "toggle_details" }, s)).toBeNull();
    expect(telemetrySignalFor(s, { type: "dismiss" }, s)).toBeNull();
    expect(telemetrySignalFor(s, { type: "defer", at: 9 }, s)).toEqual({
      kind: "deferred",
      decisionMs: null,
    });
  });
});
