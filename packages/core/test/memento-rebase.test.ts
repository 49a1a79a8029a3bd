import { rebaseMementoShape, type ThreadMementoShape } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const shape = (over: Partial<ThreadMementoShape> = {}): ThreadMementoShape => ({
  arc: "Plan the trip",
  active: [],
  parked: [],
  decisions: [],
  next: [],
  ...over,
});

describe("rebaseMementoShape (CAS retry merge)", () => {
  it("keeps the concurrent turn's decision and adds this turn's", () => {
    const base = shape({ decisions: ["Fly on Monday"] });
    const current = shape({ decisions: ["Fly on Monday", "Stay in Lisbon"] });
    const proposed = shape({ decisions: ["Fly on Monday", "Rent a car"] });
    expect(rebaseMementoShape({ base, proposed, current }).decisions).toEqual([
      "Fly on Monday",
      "Stay in Lisbon",
      "Rent a car",
    ]);
  });

  it("applies this turn's removals and arc change, and otherwise keeps the current arc", () => {
    const base = shape({ next: ["Book hotel", "Pack"], arc: "Plan the trip" });
    const current = shape({ next: ["Book hotel", "Pack", "Buy adapter"], arc: "Plan the Lisbon trip" });
    const removed = rebaseMementoShape({ base, proposed: shape({ next: ["Pack"] }), current });
    expect(removed.next).toEqual(["Pack", "Buy adapter"]);
    expect(removed.arc).toBe("Plan the Lisbon trip");
    const renamed = rebaseMementoShape({
      base,
      proposed: shape({ arc: "Cancel the trip", next: ["Pack"] }),
      current,
    });
    expect(renamed.arc).toBe("Cancel the trip");
  });

  it("with no base or current memento the proposal stands", () => {
    const proposed = shape({ active: ["Draft the budget"] });
    expect(rebaseMementoShape({ base: null, proposed, current: null })).toEqual(proposed);
  });

  it("property: every item the proposal added is present, every item it removed is absent, nothing else of current is lost, at most 50 items", () => {
    const item = fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h");
    const list = fc.uniqueArray(item, { maxLength: 8 });
    fc.assert(
      fc.property(list, list, list, (baseList, proposedList, currentList) => {
        const out = rebaseMementoShape({
          base: shape({ decisions: baseList }),
          proposed: shape({ decisions: proposedList }),
          current: shape({ decisions: currentList }),
        }).decisions;
        for (const x of proposedList) if (!baseList.includes(x)) expect(out).toContain(x);
        for (const x of baseList) if (!proposedList.includes(x)) expect(out).not.toContain(x);
        for (const x of currentList) if (!baseList.includes(x)) expect(out).toContain(x);
        expect(new Set(out).size).toBe(out.length);
        expect(out.length).toBeLessThanOrEqual(50);
      }),
    );
  });
});
