// Out-of-scope rows of the router benchmark (plain Node ESM, imported by bench-router.mjs).
// Banking77 intents are split by a fixed rule, not by hand: in categories.json order, the intents at
// index % 4 === rotation are held out of the pack; their test messages are out of scope. Rotation 0 is
// the reported split; rotations 1-3 (every intent held out once) and the default pack's everyday
// messages (no banking intent at all) check it. The router before the out-of-scope evidence is the
// same code with `outOfScope: false`, measured in the same run.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { modesFromRows } from "./banking77.mjs";

/** The held-out intents of one rotation. */
export function heldOutIntents(dataDir, rotation) {
  const categories = JSON.parse(readFileSync(join(dataDir, "categories.json"), "utf8"));
  return categories.filter((_, i) => i % 4 === rotation);
}

/** Routes in-scope and out-of-scope messages with one router; the goal's three numbers. */
export function scoreOutOfScope(router, inScope, outOfScope) {
  const defaultMode = router.config.defaultMode;
  const routed = inScope.map(({ text, category }) => {
    const d = router.route({ message: text });
    return { decided: d.step <= 1, correct: d.modeLabel === category };
  });
  const decided = routed.filter((r) => r.decided);
  const abstained = outOfScope.filter(({ text }) => {
    const d = router.route({ message: text });
    return d.step === 2 || d.modeLabel === defaultMode;
  });
  return {
    inScope: inScope.length,
    outOfScope: outOfScope.length,
    coverage: decided.length / inScope.length,
    precision: decided.length ? decided.filter((r) => r.correct).length / decided.length : 1,
    outOfScopeAbstained: outOfScope.length ? abstained.length / outOfScope.length : 1,
  };
}

/** Meets the goal: >= 80% of out-of-scope to step 2 or default, >= 80% in-scope at step <= 1, >= 97% precise. */
export function meetsGoal(row) {
  return row.outOfScopeAbstained >= 0.8 && row.coverage >= 0.8 && row.precision >= 0.97;
}

/**
 * Baseline and current router on each rotation, plus far out-of-scope everyday messages against the
 * rotation-0 pack. `createRouter` is the built core's; `everyday` the default pack's eval messages.
 */
export function evaluateOutOfScope({ createRouter, dataDir, train, test, perIntent, threshold, everyday }) {
  const rows = [];
  for (let rotation = 0; rotation < 4; rotation++) {
    const held = new Set(heldOutIntents(dataDir, rotation));
    const modes = modesFromRows(
      train.filter((r) => !held.has(r.category)),
      perIntent,
    );
    const config = { modes, defaultMode: modes[0].label, confidenceThreshold: threshold };
    const inScope = test.filter((r) => !held.has(r.category));
    const outOfScope = test.filter((r) => held.has(r.category));
    for (const variant of ["before", "after"]) {
      const router = createRouter(config, { outOfScope: variant === "after" });
      const base = { rotation, variant, heldOut: held.size, modes: modes.length };
      rows.push({ ...base, set: "banking77", ...scoreOutOfScope(router, inScope, outOfScope) });
      if (rotation === 0) {
        const far = everyday.map((row) => ({ text: row.message, category: "" }));
        rows.push({ ...base, set: "everyday", ...scoreOutOfScope(router, inScope, far) });
      }
    }
  }
  return rows;
}
