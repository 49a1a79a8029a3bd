import { createRouter, ModeDecision } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSelectorReply } from "../src/router/selector.js";
import { SMALL_PACK } from "./router-fixtures.js";

const router = createRouter(SMALL_PACK);
const labels = router.modes.map((m) => m.label);
const vocabulary = [
  ...new Set(
    router.modes.flatMap((m) => [...(m.examples ?? []), ...(m.keywords ?? [])]).flatMap((t) => t.split(" ")),
  ),
  "switch",
  "to",
  "mode",
  "/mode",
  "contract",
  "careful",
  "review",
  "tax",
  "?",
  "42",
  "$5",
];

const message = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.array(fc.constantFrom(...vocabulary), { maxLength: 14 }).map((words) => words.join(" ")),
);
const thread = fc.option(
  fc.record(
    {
      lastModeLabel: fc.constantFrom(...labels, "unknown-mode"),
      domainTags: fc.array(fc.constantFrom("legal", "finance", "music"), { maxLength: 3 }),
      messageCount: fc.nat(500),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

function checkDecision(decision: ModeDecision, threshold: number): void {
  expect(ModeDecision.parse(decision)).toEqual(decision);
  expect(labels).toContain(decision.modeLabel);
  expect(decision.confidence).toBeGreaterThanOrEqual(0);
  expect(decision.confidence).toBeLessThanOrEqual(1);
  if (decision.step === 0) expect(decision.confidence).toBe(1);
  else expect(decision.step === 2).toBe(decision.confidence < threshold);
  if (decision.rigorConfig.level === "high") expect(decision.checkpointNeeded).toBe(true);
}

describe("router properties", () => {
  it("a confidence that rounds up to the threshold is not below it (found by the property below)", () => {
    const decision = router.route({ message: "next shuffle what", thread: { lastModeLabel: "chat" } });
    checkDecision(decision, router.confidenceThreshold);
  });

  it("every decision is a valid ModeDecision for a known mode, with the step matching the threshold", () => {
    fc.assert(
      fc.property(message, thread, (text, meta) => {
        const decision = router.route(
          meta === undefined ? { message: text } : { message: text, thread: meta },
        );
        checkDecision(decision, 0.6);
      }),
      { numRuns: 400 },
    );
  });

  it("routing is a pure function of message and thread", () => {
    fc.assert(
      fc.property(message, thread, (text, meta) => {
        const input = meta === undefined ? { message: text } : { message: text, thread: meta };
        expect(router.route(input)).toEqual(router.route(input));
      }),
      { numRuns: 200 },
    );
  });

  it("any threshold splits step 1 from step 2 exactly at the confidence", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(message, { minLength: 5, maxLength: 5 }),
        (t, texts) => {
          const r = createRouter({ ...SMALL_PACK, confidenceThreshold: t });
          for (const text of texts) checkDecision(r.route({ message: text }), t);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("parseSelectorReply never throws and always yields a valid step-2 decision for a known mode", () => {
    const fallback = router.route({ message: "check the weather and play a song" });
    const reply = fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .record(
          { modeLabel: fc.oneof(fc.constantFrom(...labels), fc.string()), confidence: fc.double() },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
    );
    fc.assert(
      fc.property(reply, (text) => {
        const { decision, usedFallback, issues } = parseSelectorReply(text, {
          modes: router.modes,
          fallback,
        });
        expect(ModeDecision.parse(decision)).toEqual(decision);
        expect(decision.step).toBe(2);
        expect(labels).toContain(decision.modeLabel);
        expect(usedFallback).toBe(issues !== undefined);
      }),
      { numRuns: 300 },
    );
  });
});
