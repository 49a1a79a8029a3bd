import { createRouter, ModeDecision } from "@solserver/core";
import { describe, expect, it } from "vitest";
import {
  buildSelectorPrompt,
  parseSelectorReply,
  SELECTOR_DEFAULT_CONFIDENCE,
} from "../src/router/selector.js";
import { SMALL_PACK } from "./router-fixtures.js";

const router = createRouter(SMALL_PACK);
const message = "check the weather and play a song";
const fallback = router.route({ message });
const modes = router.modes;

describe("buildSelectorPrompt", () => {
  it("lists every mode, asks for ModeDecision JSON only, and quotes the message and best guess", () => {
    const prompt = buildSelectorPrompt({ message, modes, bestGuess: fallback });
    expect(prompt.map((m) => m.role)).toEqual(["system", "user"]);
    const [system, user] = prompt;
    for (const mode of modes) expect(system?.content).toContain(`- ${mode.label}: `);
    expect(system?.content).toContain('"modeLabel"');
    expect(system?.content).toMatch(/nothing else/);
    expect(user?.content).toContain(message);
    expect(user?.content).toContain(`best guess: ${fallback.modeLabel}`);
    expect(router.selectorPrompt(message, fallback)).toEqual(prompt);
  });

  it("stays small for long messages and many modes", () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ label: `mode_${i}`, description: "x".repeat(400) }));
    const prompt = buildSelectorPrompt({ message: "y".repeat(20_000), modes: many });
    const size = prompt.reduce((n, m) => n + m.content.length, 0);
    expect(size).toBeLessThan(20_000);
  });
});

describe("parseSelectorReply", () => {
  const parse = (text: string) => parseSelectorReply(text, { modes, fallback });

  it("accepts a JSON object naming a known mode and derives the rest from the mode", () => {
    const result = parse(
      '{"modeLabel":"review","confidence":0.8,"reasons":["user asks to check wording"],"rigorConfig":{"level":"low","gates":[]},"checkpointNeeded":false}',
    );
    expect(result.usedFallback).toBe(false);
    expect(result.issues).toBeUndefined();
    expect(ModeDecision.parse(result.decision)).toEqual(result.decision);
    expect(result.decision).toMatchObject({
      modeLabel: "review",
      step: 2,
      confidence: 0.8,
      rigorConfig: { level: "high", gates: ["facts_block"] },
      checkpointNeeded: true,
      domainFlags: ["legal"],
    });
    expect(result.decision.reasons).toEqual([
      'step 2: selector chose "review"',
      "selector: user asks to check wording",
    ]);
  });

  it("tolerates code fences and surrounding whitespace", () => {
    for (const text of ['```json\n{"modeLabel":"music"}\n```', '  ```\n{"modeLabel": "music"}```  ']) {
      const result = parse(text);
      expect(result.usedFallback).toBe(false);
      expect(result.decision).toMatchObject({
        modeLabel: "music",
        step: 2,
        confidence: SELECTOR_DEFAULT_CONFIDENCE,
      });
    }
  });

  it("matches a label written differently (case, separators)", () => {
    expect(parse('{"modeLabel":"Weather"}').decision.modeLabel).toBe("weather");
  });

  it.each([
    ["prose", "I think it is music", "invalid_json"],
    ["prose around JSON", 'Sure! {"modeLabel":"music"}', "invalid_json"],
    ["an array", '["music"]', "invalid_json"],
    ["an unknown mode", '{"modeLabel":"cooking"}', "unknown_mode"],
    ["no label", '{"confidence":0.9}', "missing_mode"],
    ["an unknown field", '{"modeLabel":"music","persona":"pirate"}', "unknown_field"],
    ["a confidence out of range", '{"modeLabel":"music","confidence":7}', "invalid_confidence"],
    ["non-string reasons", '{"modeLabel":"music","reasons":[1]}', "invalid_reasons"],
  ])("falls back to the step-1 guess on %s", (_, text, code) => {
    const result = parse(text);
    expect(result.usedFallback).toBe(true);
    expect(result.issues?.map((i) => i.code)).toContain(code);
    expect(result.decision).toEqual({
      ...fallback,
      step: 2,
      reasons: [...fallback.reasons, expect.stringMatching(/^step 2: selector reply unusable/)],
    });
    expect(ModeDecision.safeParse(result.decision).success).toBe(true);
  });

  it("is bound to the router's modes on the router", () => {
    expect(router.parseSelectorReply('{"modeLabel":"timer"}', fallback).decision.modeLabel).toBe("timer");
  });
});
