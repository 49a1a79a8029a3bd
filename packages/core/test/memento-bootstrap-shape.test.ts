import { shouldFreezeSummaryAtPeak, type ThreadMementoShape } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { bootstrapThreadMementoShape, defaultMementoShape } from "../src/memento/shape.js";
import { mementoAt, validMemento } from "./fixtures/valid-memento.js";

// breakpoint-engine.md, "Summary Freeze Application":
//   let nextShape = modelShape ?? bootstrapThreadMementoShape(previous);
describe("bootstrapThreadMementoShape (breakpoint-engine.md names it)", () => {
  it("keeps the previous memento's summary fields, and only those", () => {
    const previous = validMemento();
    const shape = bootstrapThreadMementoShape(previous);
    expect(shape).toEqual({
      arc: previous.arc,
      active: previous.active,
      parked: previous.parked,
      decisions: previous.decisions,
      next: previous.next,
    });
    expect(shape.active).not.toBe(previous.active);
  });

  it("gives the default shape on a thread's first turn", () => {
    expect(bootstrapThreadMementoShape(null)).toEqual(defaultMementoShape());
    expect(bootstrapThreadMementoShape(undefined)).toEqual(defaultMementoShape());
    expect(bootstrapThreadMementoShape()).toEqual(defaultMementoShape());
  });

  it("is what the spec's freeze snippet falls back to when the guardrail discards the model shape", () => {
    const previous = mementoAt("peak", "high");
    const proposed: ThreadMementoShape = { arc: "new", active: [], parked: [], decisions: [], next: [] };
    const freeze = shouldFreezeSummaryAtPeak({
      phase: previous.affect.rollup.phase,
      intensityBucket: previous.affect.rollup.intensityBucket,
      decision: "skip",
    });
    const modelShape = !freeze ? proposed : null;
    expect(modelShape ?? bootstrapThreadMementoShape(previous)).toEqual(
      bootstrapThreadMementoShape(previous),
    );
    expect(bootstrapThreadMementoShape(previous).arc).toBe(previous.arc);
  });
});
