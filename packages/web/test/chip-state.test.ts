import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ChipEvent,
  type ChipState,
  chipStateLetter,
  initialChipState,
  transitionChip,
} from "../src/chip/chip-state.js";

function run(events: readonly ChipEvent[], from: ChipState = initialChipState()): ChipState {
  let state = from;
  for (const event of events) {
    const next = transitionChip(state, event);
    if (next.ok) state = next.value;
  }
  return state;
}

function mustStep(state: ChipState, event: ChipEvent): ChipState {
  const next = transitionChip(state, event);
  if (!next.ok) throw new Error(next.issues[0]?.message);
  return next.value;
}

describe("chip state machine", () => {
  it("starts awaiting and collapsed (state A)", () => {
    const chip = initialChipState();
    expect(chip.phase).toBe("awaiting");
    expect(chip.view).toBe("collapsed");
    expect(chipStateLetter(chip)).toBe("A");
  });

  it("walks A -> B -> C -> D on details, approve and success", () => {
    let chip = mustStep(initialChipState(), { type: "shown", at: 1000 });
    chip = mustStep(chip, { type: "toggle_details" });
    expect(chipStateLetter(chip)).toBe("B");
    chip = mustStep(chip, { type: "approve", requestId: "r1", at: 1500 });
    expect(chipStateLetter(chip)).toBe("C");
    expect(chip).toMatchObject({ attempts: 1, requestId: "r1", decidedAt: 1500 });
    chip = mustStep(chip, { type: "succeed", requestId: "r1", summary: "Reminder: call the bank" });
    expect(chipStateLetter(chip)).toBe("D");
    expect(chip.receipt).toBe("Reminder: call the bank");
  });

  it("fails to E, retries with a new request_id and can then succeed", () => {
    let chip = mustStep(initialChipState(), { type: "approve", requestId: "r1", at: 1 });
    chip = mustStep(chip, { type: "fail", requestId: "r1", reason: "Reminders unavailable" });
    expect(chipStateLetter(chip)).toBe("E");
    expect(chip.reason).toBe("Reminders unavailable");
    expect(transitionChip(chip, { type: "retry", requestId: "r1" }).ok).toBe(false);
    chip = mustStep(chip, { type: "retry", requestId: "r2" });
    expect(chip).toMatchObject({ phase: "pending", attempts: 2, requestId: "r2", reason: null });
    chip = mustStep(chip, { type: "succeed", requestId: "r2", summary: "ok" });
    expect(chip.phase).toBe("succeeded");
  });

  it("ignores a result that belongs to an earlier attempt", () => {
    let chip = mustStep(initialChipState(), { type: "approve", requestId: "r1", at: 1 });
    chip = mustStep(chip, { type: "fail", requestId: "r1", reason: "x" });
    chip = mustStep(chip, { type: "retry", requestId: "r2" });
    expect(transitionChip(chip, { type: "succeed", requestId: "r1", summary: "late" }).ok).toBe(false);
  });

  it("Not now defers without any execution and is final", () => {
    const chip = mustStep(mustStep(initialChipState(), { type: "shown", at: 10 }), { type: "defer", at: 40 });
    expect(chip).toMatchObject({ phase: "deferred", attempts: 0, requestId: null, decidedAt: 40 });
    for (const event of [
      { type: "approve", requestId: "r", at: 50 },
      { type: "retry", requestId: "r" },
      { type: "auto_expand" },
      { type: "toggle_details" },
    ] as const) {
      expect(transitionChip(chip, event).ok).toBe(false);
    }
  });

  it("refuses a second Approve while one is pending (no double execution)", () => {
    const chip = mustStep(initialChipState(), { type: "approve", requestId: "r1", at: 1 });
    const again = transitionChip(chip, { type: "approve", requestId: "r2", at: 2 });
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.issues[0]?.code).toBe("invalid_transition");
  });

  it("auto-expands to the micro view once, only from collapsed", () => {
    const micro = mustStep(initialChipState(), { type: "auto_expand" });
    expect(micro).toMatchObject({ view: "micro", autoExpanded: true });
    expect(chipStateLetter(micro)).toBe("A");
    expect(transitionChip(micro, { type: "auto_expand" }).ok).toBe(false);
    const expanded = mustStep(initialChipState(), { type: "toggle_details" });
    expect(transitionChip(expanded, { type: "auto_expand" }).ok).toBe(false);
    // Details from the micro view open fully, and close to collapsed.
    const opened = mustStep(micro, { type: "toggle_details" });
    expect(opened.view).toBe("expanded");
    expect(mustStep(opened, { type: "toggle_details" }).view).toBe("collapsed");
  });

  it("keeps the first shown time", () => {
    const chip = run([
      { type: "shown", at: 5 },
      { type: "shown", at: 9 },
    ]);
    expect(chip.shownAt).toBe(5);
  });

  it("dismisses only a failed chip", () => {
    expect(transitionChip(initialChipState(), { type: "dismiss" }).ok).toBe(false);
    const failed = run([
      { type: "approve", requestId: "a", at: 1 },
      { type: "fail", requestId: "a", reason: "no" },
    ]);
    expect(chipStateLetter(mustStep(failed, { type: "dismiss" }))).toBe("dismissed");
  });
});

const requestIdArb = fc.constantFrom("r1", "r2", "r3", "r4", "");
const eventArb: fc.Arbitrary<ChipEvent> = fc.oneof(
  fc.record({ type: fc.constant("shown" as const), at: fc.nat(10_000) }),
  fc.constant({ type: "auto_expand" as const }),
  fc.constant({ type: "toggle_details" as const }),
  fc.record({ type: fc.constant("approve" as const), requestId: requestIdArb, at: fc.nat(10_000) }),
  fc.record({ type: fc.constant("retry" as const), requestId: requestIdArb }),
  fc.record({ type: fc.constant("succeed" as const), requestId: requestIdArb, summary: fc.constant("done") }),
  fc.record({ type: fc.constant("fail" as const), requestId: requestIdArb, reason: fc.constant("no") }),
  fc.record({ type: fc.constant("defer" as const), at: fc.nat(10_000) }),
  fc.constant({ type: "dismiss" as const }),
);

describe("chip state machine properties", () => {
  it("every execution attempt has its own non-empty request_id", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
        const chip = run(events);
        expect(chip.usedRequestIds.length).toBe(chip.attempts);
        expect(new Set(chip.usedRequestIds).size).toBe(chip.attempts);
        expect(chip.usedRequestIds.every((id) => id.length > 0)).toBe(true);
      }),
    );
  });

  it("a deferred chip never executes: no attempt before or after Not now", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
        let state = initialChipState();
        let deferred = false;
        for (const event of events) {
          const next = transitionChip(state, event);
          if (!next.ok) continue;
          if (deferred) expect(next.value).toMatchObject({ phase: "deferred", attempts: 0, requestId: null });
          if (next.value.phase === "deferred") {
            deferred = true;
            expect(next.value.attempts).toBe(0);
          }
          state = next.value;
        }
      }),
    );
  });

  it("a decided chip carries its decision time; receipts and reasons match the phase", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
        const chip = run(events);
        if (chip.phase !== "awaiting") expect(chip.decidedAt).not.toBeNull();
        if (chip.phase === "succeeded") expect(chip.receipt).not.toBeNull();
        if (chip.phase === "failed") expect(chip.reason).not.toBeNull();
        if (chip.phase === "awaiting") expect(chip.attempts).toBe(0);
      }),
    );
  });

  it("a refused event leaves the state unchanged (transitions are pure)", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 20 }), eventArb, (events, last) => {
        const before = run(events);
        const copy = structuredClone(before);
        transitionChip(before, last);
        expect(before).toEqual(copy);
      }),
    );
  });
});
