// Labelled-turn evaluation of the breakpoint signal detectors, shared by the signal benchmark and
// tests (plain Node ESM). The detector is passed in, so tests run it from source and the bench from dist.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FIXTURES = join(repo, "packages/core/test/fixtures/signals");

export const SIGNAL_KINDS = [
  "decision_made",
  "scope_changed",
  "pivot",
  "answer_provided",
  "ack_only",
  "open_loop_created",
  "open_loop_resolved",
  "risk_or_conflict",
];
export const MUST_KINDS = ["decision_made", "scope_changed", "pivot", "answer_provided"];
export const SIGNAL_SETS = {
  tuning: join(FIXTURES, "labelled-turns.json"),
  heldout: join(FIXTURES, "labelled-turns-heldout.json"),
};

/** The labelled turns of one fixture file, checked for shape. */
export function readLabelledTurns(path) {
  const { turns } = JSON.parse(readFileSync(path, "utf8"));
  for (const [i, turn] of turns.entries()) {
    const ok =
      typeof turn.id === "string" &&
      typeof turn.user === "string" &&
      (turn.assistant === undefined || typeof turn.assistant === "string") &&
      (turn.previousAssistant === undefined || typeof turn.previousAssistant === "string") &&
      (turn.openLoops === undefined || Array.isArray(turn.openLoops)) &&
      Array.isArray(turn.expected) &&
      turn.expected.every((kind) => SIGNAL_KINDS.includes(kind));
    if (!ok) throw new Error(`${path}: turn ${i} is malformed`);
  }
  return turns;
}

/** Runs `detect` (detectSignals) on every turn; precision and recall per kind, and the misses. */
export function evaluateSignals(detect, turns) {
  const counts = Object.fromEntries(SIGNAL_KINDS.map((kind) => [kind, { tp: 0, fp: 0, fn: 0 }]));
  const misses = [];
  for (const turn of turns) {
    const found = new Set(
      detect({
        userMessage: turn.user,
        assistantText: turn.assistant,
        previousAssistantText: turn.previousAssistant,
        openLoops: turn.openLoops,
      }).map((signal) => signal.kind),
    );
    for (const kind of SIGNAL_KINDS) {
      const expected = turn.expected.includes(kind);
      const got = found.has(kind);
      if (expected && got) counts[kind].tp += 1;
      else if (got) counts[kind].fp += 1;
      else if (expected) counts[kind].fn += 1;
      if (expected !== got) misses.push({ id: turn.id, kind, expected, user: turn.user });
    }
  }
  const ratio = (a, b) => (b === 0 ? 1 : a / b);
  const byKind = SIGNAL_KINDS.map((kind) => {
    const { tp, fp, fn } = counts[kind];
    return {
      kind,
      positives: tp + fn,
      tp,
      fp,
      fn,
      precision: ratio(tp, tp + fp),
      recall: ratio(tp, tp + fn),
    };
  });
  return { turns: turns.length, byKind, misses };
}

/** The per-kind results of several sets as one Markdown table. */
export function signalTable(results) {
  const lines = [
    "| kind | class | set | turns | positives | precision | recall |",
    "|---|---|---|---:|---:|---:|---:|",
  ];
  for (const kind of SIGNAL_KINDS) {
    for (const [set, report] of Object.entries(results)) {
      const row = report.byKind.find((r) => r.kind === kind);
      const klass = MUST_KINDS.includes(kind) ? "MUST" : kind === "ack_only" ? "skip" : "SHOULD";
      lines.push(
        `| ${kind} | ${klass} | ${set} | ${report.turns} | ${row.positives} | ${row.precision.toFixed(3)} | ${row.recall.toFixed(3)} |`,
      );
    }
  }
  return lines.join("\n");
}
