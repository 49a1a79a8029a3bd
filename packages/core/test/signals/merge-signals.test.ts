import {
  type AnchoredSignal,
  MAX_MEMENTO_SIGNALS,
  mergeSignals,
  type SignalCandidate,
  ThreadMementoSignalItem,
  ThreadMementoSignalKind,
  toMementoSignalItems,
  validateModelSignals,
} from "@solserver/core";
import { describe, expect, it } from "vitest";

const KINDS = ThreadMementoSignalKind.options;
const stored = (kind: AnchoredSignal["kind"], endMessageId: string): ThreadMementoSignalItem => ({
  endMessageId,
  kind,
  confidence: "med",
  source: "model",
});
const server = (kind: SignalCandidate["kind"], confidence: number): SignalCandidate => ({
  kind,
  confidence,
  source: "server",
});

describe("mergeSignals", () => {
  it("anchors this turn's signals to the turn's endMessageId and keeps the older anchors", () => {
    const merged = mergeSignals([stored("pivot", "m1")], [server("decision_made", 0.9)], {
      anchorMessageId: "m9",
    });
    expect(merged.map((s) => [s.kind, s.endMessageId])).toEqual([
      ["pivot", "m1"],
      ["decision_made", "m9"],
    ]);
    expect(merged[0]?.confidence).toBe(0.6);
  });

  it("keeps one signal per kind: the newer turn's over an older one, whatever its confidence", () => {
    const old: ThreadMementoSignalItem = { ...stored("risk_or_conflict", "m1"), confidence: "high" };
    const merged = mergeSignals([old, stored("pivot", "m2")], [server("risk_or_conflict", 0.55)], {
      anchorMessageId: "m3",
    });
    expect(merged.map((s) => [s.kind, s.endMessageId, s.confidence])).toEqual([
      ["pivot", "m2", 0.6],
      ["risk_or_conflict", "m3", 0.55],
    ]);
  });

  it("within one turn the most confident of the model's and the server's signals wins", () => {
    const model: SignalCandidate = {
      kind: "decision_made",
      confidence: 0.95,
      source: "model",
      summary: "sell",
    };
    const merged = mergeSignals([], [model, server("decision_made", 0.9)], { anchorMessageId: "m4" });
    expect(merged).toEqual([
      { endMessageId: "m4", kind: "decision_made", confidence: 0.95, source: "model", summary: "sell" },
    ]);
  });

  it("keeps the newest max signals, oldest first, and never more than 8", () => {
    const history = KINDS.map((kind, i) => stored(kind, `m${i}`));
    const merged = mergeSignals(history, [server("pivot", 0.9)], { anchorMessageId: "m20", max: 3 });
    expect(merged.map((s) => s.kind)).toEqual(["open_loop_resolved", "risk_or_conflict", "pivot"]);
    const all = mergeSignals(history, [server("ack_only", 0.95)], { anchorMessageId: "m20", max: 50 });
    expect(all).toHaveLength(MAX_MEMENTO_SIGNALS);
    expect(all.at(-1)).toMatchObject({ kind: "ack_only", endMessageId: "m20" });
    expect(mergeSignals(history, [], { anchorMessageId: "m20", max: 0 })).toEqual([]);
  });

  it("converts to memento items that pass the contract schema", () => {
    const merged = mergeSignals([stored("pivot", "m1")], [server("decision_made", 0.8)], {
      anchorMessageId: "m2",
    });
    const items = toMementoSignalItems(merged);
    expect(items.map((item) => ThreadMementoSignalItem.safeParse(item).success)).toEqual([true, true]);
    expect(items[1]).toEqual({
      endMessageId: "m2",
      kind: "decision_made",
      confidence: "high",
      source: "server",
    });
  });
});

describe("validateModelSignals", () => {
  it("keeps the valid signals as model candidates and drops the bad ones with a reason", () => {
    const result = validateModelSignals([
      { kind: "decision_made", confidence: "high", summary: " Sell the house " },
      { kind: "made_up_kind", confidence: 0.5 },
      { kind: "pivot", confidence: 1.5 },
      { kind: "scope_changed", confidence: 0.7, extra: true },
      "not an object",
      { kind: "risk_or_conflict", confidence: 0.42 },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.items).toEqual([
      { kind: "decision_made", confidence: 0.9, source: "model", summary: "Sell the house" },
      { kind: "risk_or_conflict", confidence: 0.42, source: "model" },
    ]);
    expect(result.value.dropped.map((d) => d.index)).toEqual([1, 2, 3, 4]);
    for (const dropped of result.value.dropped) expect(dropped.reason.length).toBeGreaterThan(0);
  });

  it("treats absent signals as none, caps the list, and fails only on a non-list", () => {
    expect(validateModelSignals(undefined)).toEqual({ ok: true, value: { items: [], dropped: [] } });
    const many = Array.from({ length: 18 }, () => ({ kind: "pivot", confidence: "low" }));
    const capped = validateModelSignals(many);
    expect(capped.ok && capped.value.items.length).toBe(16);
    expect(capped.ok && capped.value.dropped.map((d) => d.index)).toEqual([16, 17]);
    const bad = validateModelSignals({ kind: "pivot" });
    expect(bad.ok).toBe(false);
  });
});
