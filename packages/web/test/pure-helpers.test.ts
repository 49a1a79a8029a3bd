import { describe, expect, it } from "vitest";
import { parseChipState } from "../src/chip/chip-persistence.js";
import { initialChipState, transitionChip } from "../src/chip/chip-state.js";
import { failureReason, outcomeOf } from "../src/chip/execution-outcome.js";
import { pendingLabel, receiptPillLabel } from "../src/chip/receipt-label.js";
import { formatOffset, traceRows } from "../src/trace/trace-rows.js";

describe("outcomeOf", () => {
  it("maps terminal statuses to chip events of the attempt", () => {
    expect(outcomeOf("r1", { status: "succeeded", receipt: { summary: "Reminder set" } })).toEqual({
      kind: "event",
      event: { type: "succeed", requestId: "r1", summary: "Reminder set" },
    });
    expect(outcomeOf("r1", { status: "failed", error: { reason: "Calendar offline" } })).toEqual({
      kind: "event",
      event: { type: "fail", requestId: "r1", reason: "Calendar offline" },
    });
  });

  it("waits while the server is still executing", () => {
    expect(outcomeOf("r1", { status: "approved" })).toEqual({ kind: "wait" });
    expect(outcomeOf("r1", { status: "executing" })).toEqual({ kind: "wait" });
  });

  it("turns an unexpected proposed/deferred answer into a retryable failure", () => {
    const outcome = outcomeOf("r1", { status: "proposed" });
    expect(outcome.kind === "event" && outcome.event.type).toBe("fail");
  });

  it("describes transport failures in one human line", () => {
    expect(failureReason({ code: "network_error" })).toBe("Can't reach the server.");
    expect(failureReason({ code: "timeout" })).toBe("The server took too long.");
    expect(failureReason({ code: "provider_error", status: 502, message: "Upstream failed" })).toBe(
      "Upstream failed (HTTP 502)",
    );
    expect(failureReason("weird")).toBe("Something went wrong.");
  });
});

describe("labels", () => {
  it("names the receipt pill and pending line by action kind", () => {
    expect(receiptPillLabel("create_reminder")).toBe("Reminder created");
    expect(receiptPillLabel("something_else")).toBe("Done");
    expect(pendingLabel("create_reminder")).toBe("Creating…");
    expect(pendingLabel("webhook")).toBe("Working…");
  });
});

describe("parseChipState", () => {
  it("round-trips a stored chip; an opened one reopens with its one-line summary (micro)", () => {
    let chip = initialChipState();
    for (const event of [
      { type: "shown", at: 1 },
      { type: "toggle_details" },
      { type: "defer", at: 2 },
    ] as const) {
      const next = transitionChip(chip, event);
      if (next.ok) chip = next.value;
    }
    const parsed = parseChipState(JSON.parse(JSON.stringify(chip)));
    expect(parsed).toEqual({ ...chip, view: "micro" });
  });

  it("keeps the one-line summary of a micro chip and a collapsed chip collapsed", () => {
    const micro = { ...initialChipState(), view: "micro", autoExpanded: true, shownAt: 5 };
    expect(parseChipState(JSON.parse(JSON.stringify(micro)))?.view).toBe("micro");
    const collapsed = { ...initialChipState(), shownAt: 5 };
    expect(parseChipState(JSON.parse(JSON.stringify(collapsed)))?.view).toBe("collapsed");
  });

  it("rejects what is not a chip state", () => {
    expect(parseChipState(null)).toBeNull();
    expect(parseChipState({ ...initialChipState(), phase: "exploded" })).toBeNull();
    expect(parseChipState({ ...initialChipState(), attempts: -1 })).toBeNull();
    expect(parseChipState({ ...initialChipState(), usedRequestIds: [1] })).toBeNull();
  });
});

describe("trace rows", () => {
  it("orders by seq and measures from the first event", () => {
    const rows = traceRows([
      { seq: 1, phase: "routing", status: "completed", actor: "solserver", ts: "2026-01-01T00:00:00.250Z" },
      {
        seq: 0,
        phase: "intake",
        status: "started",
        actor: "solserver",
        summary: "Packet",
        ts: "2026-01-01T00:00:00.000Z",
      },
      { seq: 2, phase: "generation", status: "completed", actor: "model", ts: "2026-01-01T00:00:01.500Z" },
    ]);
    expect(rows.map((r) => [r.seq, r.phase, r.offsetMs])).toEqual([
      [0, "intake", 0],
      [1, "routing", 250],
      [2, "generation", 1500],
    ]);
    expect(rows[0]?.summary).toBe("Packet");
  });

  it("formats offsets compactly", () => {
    expect(formatOffset(0)).toBe("+0 ms");
    expect(formatOffset(850)).toBe("+850 ms");
    expect(formatOffset(1250)).toBe("+1.25 s");
    expect(formatOffset(2000)).toBe("+2 s");
    expect(formatOffset(125_000)).toBe("+2 min 5 s");
    expect(formatOffset(null)).toBe("—");
  });
});
