import {
  buildNextMemento,
  decideBreakpointAction,
  extractBreakpointSignalKinds,
  resolveBaselineMemento,
  ThreadMementoV02,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BuildNextMementoArgs, NextMemento } from "../src/memento/build.js";
import { defaultMementoShape } from "../src/memento/shape.js";
import { validPacketInput } from "./fixtures/valid-contracts.js";
import {
  FIXTURE_NOW,
  FIXTURE_NOW_MS,
  mementoAt,
  validAffectPoint,
  validMemento,
  validSignalItem,
} from "./fixtures/valid-memento.js";

const LATER = new Date(FIXTURE_NOW_MS + 60_000).toISOString();
const modelShape = {
  arc: "Model's new arc",
  active: ["a2"],
  parked: ["p2"],
  decisions: ["d2"],
  next: ["n2"],
};

function base(overrides: Partial<BuildNextMementoArgs> = {}): BuildNextMementoArgs {
  return {
    previous: null,
    threadId: "thread-1",
    breakpointDecision: "should",
    nowIso: LATER,
    newMementoId: "mem-2",
    ...overrides,
  };
}

function build(overrides: Partial<BuildNextMementoArgs> = {}): NextMemento {
  const result = buildNextMemento(base(overrides));
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

describe("integration: peak guardrail with memento updates (breakpoint-engine.md, Test Coverage)", () => {
  it("at peak with a skip decision the previous arc is preserved; with must the model's arc is taken", () => {
    const signalled = (kind: "ack_only" | "decision_made") =>
      mementoAt("peak", "high", {
        arc: "Previous arc",
        signals: { updatedAt: FIXTURE_NOW, items: [validSignalItem({ kind })] },
      });
    const turn = (message: string, kind: "ack_only" | "decision_made") => {
      const packet = { ...validPacketInput(), message, context: { thread_memento: signalled(kind) } };
      const baseline = resolveBaselineMemento({
        threadId: packet.threadId,
        requestMemento: packet.context.thread_memento,
      });
      const decision = decideBreakpointAction({ message, signalKinds: extractBreakpointSignalKinds(packet) });
      return {
        decision,
        next: build({ previous: baseline.memento, proposedShape: modelShape, breakpointDecision: decision }),
      };
    };

    const frozen = turn("ok thanks", "ack_only");
    expect(frozen.decision).toBe("skip");
    expect(frozen.next.summaryFrozen).toBe(true);
    expect(frozen.next.memento.arc).toBe("Previous arc");
    expect(frozen.next.shapeChanged).toBe(false);

    const { decision: must, next: updated } = turn("We'll go with pg16", "decision_made");
    expect(must).toBe("must");
    expect(updated.summaryFrozen).toBe(false);
    expect(updated.memento.arc).toBe("Model's new arc");
    expect(updated.memento.decisions).toEqual(["d2"]);
    expect(updated.shapeChanged).toBe(true);
  });

  it("high intensity alone (settled phase) also freezes a should decision", () => {
    const next = build({
      previous: mementoAt("settled", "high"),
      proposedShape: modelShape,
      breakpointDecision: "should",
    });
    expect(next.summaryFrozen).toBe(true);
    expect(next.memento.arc).toBe(validMemento().arc);
  });

  it("the guardrail reads the previous affect, not this turn's point", () => {
    const next = build({
      previous: mementoAt("settled", "low"),
      proposedShape: modelShape,
      affectPoint: validAffectPoint({ endMessageId: "m-new", intensity: 0.95 }),
    });
    expect(next.summaryFrozen).toBe(false);
    expect(next.memento.arc).toBe("Model's new arc");
    expect(next.memento.affect.rollup.intensityBucket).toBe("high");
  });
});

describe("buildNextMemento", () => {
  it("first turn without a proposal: default shape, settled/low affect, new id and time", () => {
    const next = build();
    expect(next.memento).toEqual({
      mementoId: "mem-2",
      threadId: "thread-1",
      createdTs: LATER,
      version: "memento-v0.2",
      ...defaultMementoShape(),
      affect: { points: [], rollup: { phase: "settled", intensityBucket: "low", updatedAt: LATER } },
    });
    expect(next.shapeChanged).toBe(true);
    expect(next.phaseChanged).toBe(true);
    expect(next.summaryFrozen).toBe(false);
  });

  it("appends the turn's affect point to the previous affect and reports a phase change", () => {
    const previous = validMemento();
    const next = build({
      previous,
      affectPoint: validAffectPoint({ endMessageId: "m-new", intensity: 0.9 }),
    });
    expect(next.memento.affect.points.map((p) => p.endMessageId)).toEqual(["msg-1", "m-new"]);
    expect(next.memento.affect.rollup).toEqual({
      phase: "rising",
      intensityBucket: "high",
      updatedAt: LATER,
    });
    expect(next.phaseChanged).toBe(true);
    expect(next.shapeChanged).toBe(false);
  });

  it("reports an intensity bucket change at an unchanged phase", () => {
    // The fixture's one point is 0.4 (settled, med); 0.45 keeps both phase and bucket.
    const same = build({
      previous: validMemento(),
      affectPoint: validAffectPoint({ endMessageId: "m-new", intensity: 0.45 }),
    });
    expect(same).toMatchObject({ phaseChanged: false, intensityChanged: false });
    // 0.65 -> 0.72: a 0.07 step is still settled, but the bucket goes from med to high.
    const previous = validMemento({
      affect: {
        points: [validAffectPoint({ intensity: 0.65 })],
        rollup: { phase: "settled", intensityBucket: "med", updatedAt: FIXTURE_NOW },
      },
    });
    const high = build({
      previous,
      affectPoint: validAffectPoint({ endMessageId: "m-new", intensity: 0.72 }),
    });
    expect(high.memento.affect.rollup).toMatchObject({ phase: "settled", intensityBucket: "high" });
    expect(high).toMatchObject({ phaseChanged: false, intensityChanged: true });
  });

  it("reports a signals change: new items, or a quiet turn clearing the previous turn's", () => {
    // The fixture carries one open_loop_created item; a turn without signals clears it.
    const cleared = build({ previous: validMemento() });
    expect(cleared.memento.signals).toBeUndefined();
    expect(cleared.signalsChanged).toBe(true);
    expect(build({ previous: cleared.memento }).signalsChanged).toBe(false);
    const again = build({ previous: validMemento(), signals: [validSignalItem()] });
    expect(again.signalsChanged).toBe(false);
    const other = build({ previous: validMemento(), signals: [validSignalItem({ kind: "pivot" })] });
    expect(other.signalsChanged).toBe(true);
  });

  it("passes affect point times through to the window", () => {
    const previous = validMemento();
    const next = build({
      previous,
      affectPoint: validAffectPoint({ endMessageId: "m-new" }),
      affectPointTimes: { "msg-1": FIXTURE_NOW_MS - 31 * 60_000 },
    });
    expect(next.memento.affect.points.map((p) => p.endMessageId)).toEqual(["m-new"]);
  });

  it("without an affect point keeps the previous affect unchanged", () => {
    const previous = validMemento();
    const next = build({ previous, proposedShape: modelShape });
    expect(next.memento.affect).toEqual(previous.affect);
    expect(next.phaseChanged).toBe(false);
    expect(next.shapeChanged).toBe(true);
  });

  it("an identical proposal is not a shape change", () => {
    const previous = validMemento();
    const same = {
      arc: previous.arc,
      active: [...previous.active],
      parked: [...previous.parked],
      decisions: [...previous.decisions],
      next: [...previous.next],
    };
    expect(build({ previous, proposedShape: same }).shapeChanged).toBe(false);
    expect(build({ previous, proposedShape: { ...same, next: [...same.next, "more"] } }).shapeChanged).toBe(
      true,
    );
  });

  it("signals describe only this turn: replaced, newest 8 kept, dropped when none", () => {
    const previous = validMemento();
    const items = Array.from({ length: 10 }, (_, i) =>
      validSignalItem({ endMessageId: `m${i}`, kind: "pivot" }),
    );
    const withSignals = build({ previous, signals: items });
    expect(withSignals.memento.signals).toEqual({ updatedAt: LATER, items: items.slice(2) });
    expect(build({ previous }).memento.signals).toBeUndefined();
    expect(build({ previous, signals: [] }).memento.signals).toBeUndefined();
  });

  it("stamps signals in UTC even when the clock's time carries an offset", () => {
    const next = build({ nowIso: "2025-03-01T14:00:00+02:00", signals: [validSignalItem()] });
    expect(next.memento.createdTs).toBe("2025-03-01T14:00:00+02:00");
    expect(next.memento.signals?.updatedAt).toBe("2025-03-01T12:00:00.000Z");
  });

  it("does not modify the previous memento", () => {
    const previous = validMemento();
    const snapshot = structuredClone(previous);
    build({
      previous,
      proposedShape: modelShape,
      affectPoint: validAffectPoint({ endMessageId: "x" }),
      signals: [validSignalItem()],
    });
    expect(previous).toEqual(snapshot);
  });

  it.each([
    [
      "a previous memento of another thread",
      { previous: validMemento({ threadId: "other" }) },
      ["previous", "threadId"],
    ],
    ["an unparsable clock", { nowIso: "yesterday" }, ["nowIso"]],
    ["an empty memento id", { newMementoId: "" }, ["mementoId"]],
    ["a proposed arc over 200", { proposedShape: { ...modelShape, arc: "x".repeat(201) } }, ["arc"]],
    [
      "an affect point out of range",
      { affectPoint: validAffectPoint({ intensity: 2 }) },
      ["affect", "points", 0, "intensity"],
    ],
    [
      "a signal summary over 180",
      { signals: [validSignalItem({ summary: "s".repeat(181) })] },
      ["signals", "items", 0, "summary"],
    ],
  ] as const)("reports %s with a path", (_, overrides, path) => {
    const result = buildNextMemento(base(overrides as Partial<BuildNextMementoArgs>));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((issue) => issue.path)).toContainEqual(path);
  });

  it("property: output validates, freeze keeps the previous shape, and must never freezes", () => {
    const phase = fc.constantFrom(
      "rising" as const,
      "peak" as const,
      "downshift" as const,
      "settled" as const,
    );
    const bucket = fc.constantFrom("low" as const, "med" as const, "high" as const);
    const decision = fc.constantFrom("must" as const, "should" as const, "skip" as const);
    fc.assert(
      fc.property(
        phase,
        bucket,
        decision,
        fc.boolean(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (ph, b, d, propose, intensity) => {
          const previous = mementoAt(ph, b);
          const next = build({
            previous,
            breakpointDecision: d,
            ...(propose ? { proposedShape: modelShape } : {}),
            affectPoint: validAffectPoint({ endMessageId: "m-new", intensity }),
          });
          expect(ThreadMementoV02.safeParse(next.memento).success).toBe(true);
          expect(next.summaryFrozen).toBe((ph === "peak" || b === "high") && d !== "must");
          if (next.summaryFrozen || !propose) expect(next.memento.arc).toBe(previous.arc);
          else expect(next.memento.arc).toBe(modelShape.arc);
          expect(next.shapeChanged).toBe(next.memento.arc !== previous.arc);
        },
      ),
    );
  });
});
