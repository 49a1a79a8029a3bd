import {
  resolveBaselineMemento,
  shouldPersistMemento,
  signalItemsFromEnvelope,
  type ThreadMementoShape,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import { MEMENTO_PERSIST_EVERY_TURNS } from "../src/memento/persist-policy.js";
import { defaultMementoShape, mergeMementoShape } from "../src/memento/shape.js";
import { validMemento } from "./fixtures/valid-memento.js";

const proposed: ThreadMementoShape = {
  arc: "New arc",
  active: ["a2"],
  parked: [],
  decisions: ["d2"],
  next: ["n2"],
};

describe("defaultMementoShape", () => {
  it("is the support arc with empty lists, a fresh object each call", () => {
    const a = defaultMementoShape();
    expect(a).toEqual({ arc: "support", active: [], parked: [], decisions: [], next: [] });
    a.active.push("mutated");
    expect(defaultMementoShape().active).toEqual([]);
  });
});

describe("resolveBaselineMemento", () => {
  const request = validMemento({ mementoId: "from-request" });
  const stored = validMemento({ mementoId: "from-store" });

  it.each([
    [
      "request wins over stored",
      { requestMemento: request, storedMemento: stored },
      "request",
      "from-request",
    ],
    ["request alone", { requestMemento: request }, "request", "from-request"],
    ["stored when no request", { storedMemento: stored }, "stored_latest", "from-store"],
    [
      "stored when request is null",
      { requestMemento: null, storedMemento: stored },
      "stored_latest",
      "from-store",
    ],
    [
      "request of another thread is ignored",
      { requestMemento: validMemento({ threadId: "other", mementoId: "foreign" }), storedMemento: stored },
      "stored_latest",
      "from-store",
    ],
    [
      "stored of another thread is ignored",
      { storedMemento: validMemento({ threadId: "other" }) },
      "none",
      undefined,
    ],
    ["none at all", {}, "none", undefined],
  ] as const)("%s", (_, extra, source, mementoId) => {
    const result = resolveBaselineMemento({ threadId: "thread-1", ...extra });
    expect(result.source).toBe(source);
    expect(result.memento?.mementoId).toBe(mementoId);
    if (source === "none") expect(result.memento).toBeNull();
  });
});

describe("mergeMementoShape", () => {
  const previous = validMemento();
  const previousShape = {
    arc: previous.arc,
    active: previous.active,
    parked: previous.parked,
    decisions: previous.decisions,
    next: previous.next,
  };

  it.each([
    ["proposal accepted when not frozen", { previous, proposedShape: proposed, freeze: false }, proposed],
    ["frozen keeps the previous shape", { previous, proposedShape: proposed, freeze: true }, previousShape],
    ["no proposal keeps the previous shape", { previous, freeze: false }, previousShape],
    [
      "frozen without previous -> default",
      { previous: null, proposedShape: proposed, freeze: true },
      defaultMementoShape(),
    ],
    ["nothing at all -> default", { freeze: false }, defaultMementoShape()],
    [
      "first turn accepts the proposal",
      { previous: undefined, proposedShape: proposed, freeze: false },
      proposed,
    ],
  ] as const)("%s", (_, args, expected) => {
    expect(mergeMementoShape(args)).toEqual(expected);
  });

  it("returns only shape fields and copies the lists", () => {
    const merged = mergeMementoShape({ previous, freeze: true });
    expect(Object.keys(merged).sort()).toEqual(["active", "arc", "decisions", "next", "parked"]);
    merged.active.push("x");
    expect(previous.active).toEqual(["schema diff"]);
  });
});

describe("shouldPersistMemento", () => {
  const quiet = { hasPersisted: true, phaseChanged: false, shapeChanged: false, turnsSincePersist: 0 };
  it.each([
    ["nothing persisted yet", { ...quiet, hasPersisted: false }, true],
    ["phase changed", { ...quiet, phaseChanged: true }, true],
    ["intensity bucket changed", { ...quiet, intensityChanged: true }, true],
    ["signals changed", { ...quiet, signalsChanged: true }, true],
    ["shape changed", { ...quiet, shapeChanged: true }, true],
    ["5 turns since last persist", { ...quiet, turnsSincePersist: 5 }, true],
    ["more than 5 turns", { ...quiet, turnsSincePersist: 12 }, true],
    ["4 turns, nothing changed", { ...quiet, turnsSincePersist: 4 }, false],
    ["fresh and unchanged", quiet, false],
  ])("%s -> %s", (_, args, expected) => {
    expect(shouldPersistMemento(args)).toBe(expected);
  });

  it("the cadence constant is 5", () => {
    expect(MEMENTO_PERSIST_EVERY_TURNS).toBe(5);
  });
});

describe("signalItemsFromEnvelope", () => {
  it("anchors to the message, buckets numeric confidence, marks the model as source", () => {
    expect(
      signalItemsFromEnvelope(
        [
          { kind: "decision_made", confidence: 0.9, summary: "Chose pg16" },
          { kind: "open_loop_created", confidence: "low" },
        ],
        "msg-7",
      ),
    ).toEqual([
      {
        endMessageId: "msg-7",
        kind: "decision_made",
        confidence: "high",
        source: "model",
        summary: "Chose pg16",
      },
      { endMessageId: "msg-7", kind: "open_loop_created", confidence: "low", source: "model" },
    ]);
  });
});
