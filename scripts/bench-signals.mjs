#!/usr/bin/env node
// Breakpoint signal detectors on the labelled turns: precision and recall per kind on the tuning
// and held-out files, as a Markdown table. Imports the BUILT core:
//   tsc -b packages/core/tsconfig.build.json && node scripts/bench-signals.mjs [--misses] [--json]
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { evaluateSignals, readLabelledTurns, SIGNAL_SETS, signalTable } from "./signal-eval.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Evaluates the built detectors on both labelled files; returns the reports, the Markdown table and
 * the mean time of one detectSignals call (microseconds, after a warm-up pass).
 */
export async function runSignalBench() {
  const { detectSignals } = await import(join(repo, "packages/core/dist/index.js"));
  const results = {};
  const turns = [];
  for (const [set, path] of Object.entries(SIGNAL_SETS)) {
    const labelled = readLabelledTurns(path);
    turns.push(...labelled);
    results[set] = evaluateSignals(detectSignals, labelled);
  }
  const passes = 5;
  const t0 = performance.now();
  for (let p = 0; p < passes; p++) {
    for (const turn of turns) detectSignals({ userMessage: turn.user, assistantText: turn.assistant });
  }
  const microsPerTurn = ((performance.now() - t0) * 1000) / (passes * turns.length);
  return { results, table: signalTable(results), microsPerTurn };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const { results, table, microsPerTurn } = await runSignalBench();
  if (args.includes("--json")) console.log(JSON.stringify({ results, microsPerTurn }, null, 2));
  else {
    console.log("## Breakpoint signal detectors\n");
    console.log(table);
    console.log(`\ndetectSignals: ${microsPerTurn.toFixed(1)} µs per turn (mean)`);
    if (args.includes("--misses")) {
      // Only the tuning file's misses: the held-out file is not used to tune cues.
      for (const miss of results.tuning.misses) {
        console.log(`${miss.expected ? "FN" : "FP"} ${miss.kind} ${miss.id}: ${miss.user}`);
      }
    }
  }
}
