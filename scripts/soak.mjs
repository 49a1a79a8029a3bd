#!/usr/bin/env node
// Agency soak (agency-pipeline-contract.md §7): drive ticks, conversion and execution against a
// simulated world or a real local Minecraft server, then the eight acceptance criteria.
// Imports the BUILT packages (run through `npm run soak`, which builds first).
//   npm run soak -- --minutes N [--world sim|minecraft] [--mode survival|creative] [--time-scale K]
//                   [--seed S] [--tick-every MS] [--thought-every N] [--thoughts scripted|generator]
//                   [--log-dir DIR] [--db URL] [--quiet]
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { parseSoakArgs, runSoak } = await import(join(repo, "packages/harness/dist/index.js"));

const parsed = parseSoakArgs(process.argv.slice(2));
if (!parsed.ok) {
  for (const issue of parsed.issues)
    console.error(`soak: ${(issue.path ?? []).join(".") || "args"}: ${issue.message}`);
  console.error(
    "usage: npm run soak -- --minutes N [--world sim|minecraft] [--mode survival|creative] [--time-scale K]",
  );
  process.exit(2);
}
const options = { ...parsed.value, logDir: resolve(repo, parsed.value.logDir) };
const stop = new AbortController();
process.once("SIGINT", () => stop.abort());
try {
  const report = await runSoak(options, { signal: stop.signal });
  process.exitCode = report.passed ? 0 : 1;
} catch (error) {
  console.error(`soak failed to run: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
}
