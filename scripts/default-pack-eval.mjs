// Everyday-message evaluation of the default mode pack, shared by the router benchmark and tests
// (plain Node ESM). The messages are a held-out fixture, never used as the pack's examples.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FIXTURE = join(repo, "packages/core/test/fixtures/default-pack-eval.json");
const KINDS = ["task", "support", "rigor", "greeting", "ack"];

/** The labelled messages of the fixture, checked for shape. */
export function readDefaultPackEval(path = FIXTURE) {
  const { messages } = JSON.parse(readFileSync(path, "utf8"));
  for (const [i, row] of messages.entries()) {
    const ok =
      typeof row.message === "string" &&
      typeof row.mode === "string" &&
      KINDS.includes(row.kind) &&
      (row.lastMode === undefined || typeof row.lastMode === "string");
    if (!ok) throw new Error(`default-pack-eval.json: message ${i} is malformed`);
  }
  return messages;
}

/**
 * Routes every message (with its thread's last mode, if any) and measures what the ladder promises:
 * the share decided without the selector (step <= 1), the precision of those decisions, overall
 * top-1 accuracy of the final or best-guess mode, and greetings/acknowledgements sent to "system"
 * although they belong elsewhere.
 */
export function evaluateRouter(router, rows) {
  const routed = rows.map((row) => {
    const thread = row.lastMode === undefined ? undefined : { lastModeLabel: row.lastMode };
    const decision = router.route(thread ? { message: row.message, thread } : { message: row.message });
    return { row, decision, correct: decision.modeLabel === row.mode };
  });
  const decided = routed.filter((r) => r.decision.step <= 1);
  const share = (items, predicate) => (items.length ? items.filter(predicate).length / items.length : 1);
  const byKind = KINDS.map((kind) => {
    const items = routed.filter((r) => r.row.kind === kind);
    return {
      kind,
      count: items.length,
      decidedShare: share(items, (r) => r.decision.step <= 1),
      accuracy: share(items, (r) => r.correct),
    };
  }).filter((k) => k.count > 0);
  return {
    messages: routed.length,
    threshold: router.confidenceThreshold,
    decidedShare: decided.length / routed.length,
    decidedPrecision: share(decided, (r) => r.correct),
    accuracy: share(routed, (r) => r.correct),
    phaticToSystem: routed.filter(
      (r) =>
        (r.row.kind === "ack" || r.row.kind === "greeting") &&
        r.row.mode !== "system" &&
        r.decision.modeLabel === "system",
    ).length,
    byKind,
    misses: routed
      .filter((r) => !r.correct || r.decision.step === 2)
      .map((r) => ({
        message: r.row.message,
        expected: r.row.mode,
        modeLabel: r.decision.modeLabel,
        step: r.decision.step,
        confidence: r.decision.confidence,
      })),
  };
}
