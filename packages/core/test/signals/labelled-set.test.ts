import { detectSignals } from "@solserver/core";
import { describe, expect, it } from "vitest";
import {
  evaluateSignals,
  MUST_KINDS,
  readLabelledTurns,
  SIGNAL_KINDS,
  SIGNAL_SETS,
  signalTable,
} from "../../../../scripts/signal-eval.mjs";

const tuning = readLabelledTurns(SIGNAL_SETS.tuning);
const heldout = readLabelledTurns(SIGNAL_SETS.heldout);

describe("labelled signal turns", () => {
  it("hold at least 300 turns, 25 positives per kind, negatives, and a separate held-out quarter", () => {
    const all = [...tuning, ...heldout];
    expect(all.length).toBeGreaterThanOrEqual(300);
    for (const kind of SIGNAL_KINDS) {
      expect(all.filter((turn) => turn.expected.includes(kind)).length, kind).toBeGreaterThanOrEqual(25);
    }
    expect(all.filter((turn) => turn.expected.length === 0).length).toBeGreaterThanOrEqual(80);
    expect(heldout.length / all.length).toBeGreaterThan(0.2);
    const tuningTexts = new Set(tuning.map((turn) => `${turn.user}|${turn.assistant ?? ""}`));
    expect(heldout.filter((turn) => tuningTexts.has(`${turn.user}|${turn.assistant ?? ""}`))).toEqual([]);
  });

  // A regression guard on the tuning file: a false MUST unfreezes the memento at peak intensity.
  it("keep precision >= 0.9 for the MUST kinds on the tuning file, with recall above half", () => {
    const report = evaluateSignals(detectSignals, tuning);
    for (const kind of MUST_KINDS) {
      const score = report.byKind.find((row) => row.kind === kind);
      expect(score?.precision, kind).toBeGreaterThanOrEqual(0.9);
      expect(score?.recall, kind).toBeGreaterThan(0.5);
    }
  });
});

describe("signalTable", () => {
  it("prints one Markdown row per kind and set, with the MUST kinds marked", () => {
    const report = evaluateSignals(detectSignals, tuning.slice(0, 20));
    const lines = signalTable({ tuning: report, heldout: report }).split("\n");
    expect(lines).toHaveLength(2 + SIGNAL_KINDS.length * 2);
    expect(lines.filter((line) => line.includes("| MUST |"))).toHaveLength(MUST_KINDS.length * 2);
    expect(lines[2]).toMatch(
      /^\| decision_made \| MUST \| tuning \| 20 \| \d+ \| \d\.\d{3} \| \d\.\d{3} \|$/,
    );
  });
});
