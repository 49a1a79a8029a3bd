import { createRouter, type Router } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { type LabelledText, modesFromRows, readBanking77 } from "../../../scripts/banking77.mjs";
import { readDefaultPackEval } from "../../../scripts/default-pack-eval.mjs";
import { fitScopeModel } from "../src/router/out-of-scope.js";

// A pack of 30 Banking77 intents (x30 examples); 10 sibling intents of the same bank are held out.
const train = readBanking77("train");
const test = readBanking77("test");
const categories = [...new Set(train.map((r) => r.category))].slice(0, 40);
const inScopeIntents = new Set(categories.filter((_, i) => i % 4 !== 0));
const modes = modesFromRows(
  train.filter((r) => inScopeIntents.has(r.category)),
  30,
);
const config = { modes, defaultMode: modes[0]!.label, confidenceThreshold: 0.7 };
const inScope = test.filter((r) => inScopeIntents.has(r.category));
const heldOut = test.filter((r) => categories.includes(r.category) && !inScopeIntents.has(r.category));

/** Share of messages that reach the selector (step 2) or the default mode. */
function abstained(router: Router, items: readonly LabelledText[]): number {
  const kept = items.filter(({ text }) => {
    const d = router.route({ message: text });
    return d.step === 2 || d.modeLabel === config.defaultMode;
  });
  return kept.length / items.length;
}

function decidedPrecision(router: Router, items: readonly LabelledText[]) {
  const decided = items
    .map(({ text, category }) => ({ d: router.route({ message: text }), category }))
    .filter(({ d }) => d.step <= 1);
  const correct = decided.filter(({ d, category }) => d.modeLabel === category).length;
  return { coverage: decided.length / items.length, precision: correct / Math.max(1, decided.length) };
}

describe("out-of-scope messages are not routed confidently", () => {
  const router = createRouter(config);
  const before = createRouter(config, { outOfScope: false });

  it("held-out intents of the same bank mostly go to the selector or the default mode", () => {
    expect(heldOut.length).toBeGreaterThan(300);
    const after = abstained(router, heldOut);
    expect(after).toBeGreaterThanOrEqual(0.75);
    expect(after - abstained(before, heldOut)).toBeGreaterThan(0.1);
  });

  it("everyday messages reach no banking intent at step <= 1", () => {
    const everyday = readDefaultPackEval().map((row) => ({ text: row.message, category: "" }));
    expect(abstained(router, everyday)).toBeGreaterThanOrEqual(0.97);
  });

  it("in-scope messages keep most of their coverage, at a higher precision", () => {
    const after = decidedPrecision(router, inScope);
    const baseline = decidedPrecision(before, inScope);
    expect(after.coverage).toBeGreaterThan(0.7);
    expect(after.precision).toBeGreaterThanOrEqual(0.97);
    expect(after.precision).toBeGreaterThanOrEqual(baseline.precision);
  });

  it("explain() shows the fit, lower for a message about something the pack does not cover", () => {
    const off = router.explain("what's a good recipe for banana bread?");
    const on = router.explain(inScope[0]!.text);
    expect(off.scopeFit).not.toBeNull();
    expect(on.scopeFit).not.toBeNull();
    expect(off.scopeFit!).toBeLessThan(on.scopeFit!);
    expect(off.decision.step).toBe(2);
    expect(off.decision.reasons.some((r) => r.includes("may be out of scope"))).toBe(true);
    expect(before.explain("what's a good recipe for banana bread?").scopeFit).toBeNull();
  });

  it("a configured term of the best mode is evidence enough: no out-of-scope discount", () => {
    const withTerm = createRouter({
      ...config,
      modes: modes.map((m, i) => (i === 1 ? { ...m, keywords: ["zorbulate"] } : m)),
    });
    const explanation = withTerm.explain("please zorbulate");
    expect(explanation.decision.modeLabel).toBe(modes[1]!.label);
    expect(explanation.scopeFit).toBeNull();
  });

  it("a pack too small to calibrate has no scope model", () => {
    const tiny = createRouter({
      modes: [
        { label: "cooking", examples: ["recipe for soup"] },
        { label: "travel", examples: ["book a flight"] },
      ],
      defaultMode: "cooking",
    });
    expect(tiny.explain("recipe for pasta").scopeFit).toBeNull();
  });
});

describe("fitScopeModel", () => {
  const points = Array.from({ length: 200 }, (_, i) => ({
    inScope: 4 + (i % 10) / 2,
    outOfScope: 2 + (i % 10) / 2,
  }));

  it("is monotone in the best logit, from no fit to a sure fit", () => {
    const model = fitScopeModel(points);
    const values = [0, 2, 3, 4, 5, 6, 7, 10].map((z) => model.fit(z));
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
    expect(values[0]!).toBeLessThan(0.05);
    expect(values[values.length - 1]!).toBeGreaterThan(0.95);
  });

  it("a higher out-of-scope prior lowers the fit of an ambiguous score", () => {
    expect(fitScopeModel(points, 0.5).fit(5)).toBeGreaterThan(fitScopeModel(points, 0.8).fit(5));
    expect(fitScopeModel(points, 0.5).fit(5)).toBeLessThan(fitScopeModel(points, 0.1).fit(5));
  });
});
