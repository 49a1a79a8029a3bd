import {
  buildPatchDirectives,
  createPolicyEngine,
  DriverBlock,
  type LintResult,
  lintOutput,
  type Violation,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LINT_CODES } from "../../src/drift/lint.js";
import { MAX_PATCH_DIRECTIVES } from "../../src/drift/patch-directives.js";
import { compileDriverBlocks } from "../../src/driver-blocks/compile.js";
import { KNOWN_RIGOR_GATES } from "../../src/driver-blocks/rigor-rules.js";
import { modeDecision, rigor } from "../fixtures/turn-fixtures.js";

const engine = createPolicyEngine();
const policyFor = (request: Parameters<typeof engine.resolve>[0]) => {
  const r = engine.resolve(request);
  if (!r.ok) throw new Error("resolve failed");
  return r.value;
};
const defaultPolicy = policyFor({});

describe("lintOutput sources and enforcement", () => {
  it("attributes a claim to the baseline block, or to governance when no block covers it", () => {
    const byBlock = lintOutput({ text: "I sent it.", modeDecision: modeDecision(), policy: defaultPolicy });
    expect(byBlock.violations).toEqual([
      expect.objectContaining({
        code: LINT_CODES.claimedAction,
        source: "driver-block:no-claimed-actions@1",
        enforcement: "strict",
      }),
    ]);
    const custom = policyFor({ driverBlockMode: "custom" });
    const byLaw = lintOutput({ text: "I sent it.", modeDecision: modeDecision(), policy: custom });
    expect(byLaw.violations).toEqual([
      expect.objectContaining({
        code: LINT_CODES.claimedAction,
        source: "governance",
        enforcement: "strict",
      }),
    ]);
  });

  it("keeps the governance floor strict even when a user block only warns about claims", () => {
    const warnOnly = compileDriverBlocks([
      DriverBlock.parse({
        id: "w",
        version: 1,
        title: "w",
        enforcement: "warn",
        actionExpectations: [{ when: "I sent", require: "receipt" }],
      }),
    ]);
    if (!warnOnly.ok) throw new Error("compile failed");
    const result = lintOutput({ text: "I sent it.", modeDecision: modeDecision(), policy: warnOnly.value });
    expect(result.passed).toBe(false);
    expect(result.violations.map((v) => `${v.source}:${v.enforcement}`)).toEqual([
      "driver-block:w@1:warn",
      "governance:strict",
    ]);
  });

  it("names the rigor rule and gate sources", () => {
    const result = lintOutput({
      text: "42",
      modeDecision: modeDecision({ rigorConfig: rigor("high", ["Facts", "decisions"]) }),
      policy: defaultPolicy,
    });
    expect(result.violations.map((v) => v.source)).toEqual([
      "rigor:high",
      "rigor-gate:facts",
      "rigor-gate:decisions_next",
    ]);
    expect(KNOWN_RIGOR_GATES).toEqual(["facts", "assumptions", "decisions_next"]);
  });

  it("ignores unknown gates", () => {
    const result = lintOutput({
      text: "ok",
      modeDecision: modeDecision({ rigorConfig: rigor("normal", ["citations"]) }),
      policy: defaultPolicy,
    });
    expect(result).toEqual({ passed: true, violations: [] });
  });

  it("produces schema-sized violations for huge inputs", () => {
    const text = `As your lawyer ${"x".repeat(2000)}`;
    const long = compileDriverBlocks([
      DriverBlock.parse({
        id: "b".repeat(64),
        version: "v".repeat(32),
        title: "t",
        validators: { required: ["z".repeat(200)] },
      }),
    ]);
    if (!long.ok) throw new Error("compile failed");
    for (const v of lintOutput({ text, modeDecision: modeDecision(), policy: long.value }).violations) {
      expect(v.message.length).toBeLessThanOrEqual(500);
      expect(v.source.length).toBeLessThanOrEqual(128);
    }
  });
});

describe("lintOutput properties", () => {
  const filler = fc.array(fc.constantFrom("the", "plan", "is", "ready", "we", "can", "talk", "later", "."), {
    maxLength: 30,
  });
  const sentence = filler.map((w) => w.join(" "));

  it("passed is exactly 'no strict violation', and linting is deterministic", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom("low", "normal", "high"), (text, level) => {
        const input = {
          text,
          modeDecision: modeDecision({ rigorConfig: rigor(level as "low") }),
          policy: defaultPolicy,
        };
        const a = lintOutput(input);
        expect(a.passed).toBe(a.violations.every((v) => v.enforcement !== "strict"));
        expect(lintOutput(input)).toEqual(a);
      }),
    );
  });

  it("a planted forbidden phrase always fails a strict mustNot block", () => {
    const policy = policyFor({
      driverBlockInline: [
        { id: "n", version: 1, title: "n", validators: { mustNot: ["as an AI/assistant"] } },
      ],
    });
    fc.assert(
      fc.property(
        sentence,
        sentence,
        fc.constantFrom("As an AI", "as an ASSISTANT", "as an  ai"),
        (a, b, phrase) => {
          const result = lintOutput({ text: `${a} ${phrase} ${b}`, modeDecision: modeDecision(), policy });
          expect(result.passed).toBe(false);
          expect(result.violations.map((v) => v.code)).toContain(LINT_CODES.forbiddenPattern);
        },
      ),
    );
  });

  it("a planted claim fails without receipts and passes with one", () => {
    fc.assert(
      fc.property(
        sentence,
        fc.constantFrom("I sent", "I've scheduled", "I have booked", "has been paid", "I deployed"),
        (a, claim) => {
          const text = `${a} ${claim} it.`;
          expect(lintOutput({ text, modeDecision: modeDecision(), policy: defaultPolicy }).passed).toBe(
            false,
          );
          expect(
            lintOutput({ text, modeDecision: modeDecision(), policy: defaultPolicy, receipts: ["done #1"] })
              .passed,
          ).toBe(true);
        },
      ),
    );
  });

  it("adding a receipt never adds violations", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const without = lintOutput({ text, modeDecision: modeDecision(), policy: defaultPolicy }).violations
          .length;
        const withReceipt = lintOutput({
          text,
          modeDecision: modeDecision(),
          policy: defaultPolicy,
          receipts: ["r"],
        }).violations.length;
        expect(withReceipt).toBeLessThanOrEqual(without);
      }),
    );
  });
});

describe("buildPatchDirectives", () => {
  const v = (code: string, enforcement: "strict" | "warn", message = `fix ${code}`): Violation => ({
    code,
    enforcement,
    message,
    source: "s",
  });

  it("puts strict fixes first, names source and code, and deduplicates", () => {
    const directives = buildPatchDirectives([v("a", "warn"), v("b", "strict"), v("b", "strict")]);
    expect(directives).toEqual(["Fix [s] b: fix b", "Fix [s] a: fix a"]);
  });

  it("is bounded and empty for no violations", () => {
    expect(buildPatchDirectives([])).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => v(`c${i}`, "strict"));
    expect(buildPatchDirectives(many)).toHaveLength(MAX_PATCH_DIRECTIVES);
  });

  it("turns real lint findings into instructions that quote what to fix", () => {
    const result: LintResult = lintOutput({
      text: "I booked it.",
      modeDecision: modeDecision(),
      policy: policyFor({ driverBlockRefs: [{ id: "facts-block", version: 1 }] }),
    });
    const directives = buildPatchDirectives(result.violations);
    expect(directives.some((d) => d.includes('"Facts:"'))).toBe(true);
    expect(directives.some((d) => d.includes('"i booked"') && d.includes("meta.action_needed"))).toBe(true);
  });
});
