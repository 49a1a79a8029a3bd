import { createPolicyEngine, lintOutput } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { findModeSwitch } from "../../src/drift/governance.js";
import { normalizeForMatch } from "../../src/driver-blocks/patterns.js";
import { modeDecision } from "../fixtures/turn-fixtures.js";

interface Row {
  readonly name: string;
  readonly text: string;
  /** The routed mode; "chat" unless given. */
  readonly active?: string;
  /** The mode pack's labels (LintInput.modes). */
  readonly modes?: string[];
  /** The expected mode_drift enforcement, or null for none. */
  readonly drift: "strict" | "warn" | null;
}

const PACK = ["chat", "companion", "coach"];
// The shipped pack (default-pack.ts): "system" is also an everyday word in OS-settings advice.
const SHIPPED = { active: "assist", modes: ["assist", "companion", "system"] };

const TABLE: readonly Row[] = [
  { name: "another mode, no pack", text: "Switching to legal mode now.", drift: "warn" },
  { name: "self, no pack given", text: "Good question. I'm entering coach mode.", drift: "warn" },
  {
    name: "self announcement of a pack mode",
    text: "I am switching to companion mode now. Tell me how you feel.",
    modes: PACK,
    drift: "strict",
  },
  {
    name: "a pack mode announced after UI advice",
    text: "Switching to dark mode helps at night. I'm entering coach mode.",
    modes: PACK,
    drift: "strict",
  },
  {
    name: "UI advice opening a sentence",
    text: "Switching to dark mode can reduce eye strain.",
    modes: PACK,
    drift: "warn",
  },
  {
    name: "staying in the active mode",
    text: "I'm staying in chat mode; switching to chat mode changes nothing.",
    modes: PACK,
    drift: null,
  },
  { name: "self, not a pack mode", text: "I'm switching to dark mode for you.", modes: PACK, drift: "warn" },
  // Pack labels in advice: an imperative or a participle that goes on is said to the user.
  {
    name: "imperative after a sentence (OS theme advice)",
    text: "Open Settings > Appearance. Switch to system mode so the theme follows your OS.",
    ...SHIPPED,
    drift: "warn",
  },
  { name: "imperative opening the reply", text: "Switch to system mode.", ...SHIPPED, drift: "warn" },
  {
    name: "imperative after now",
    text: "You can now switch to system mode in Settings.",
    ...SHIPPED,
    drift: "warn",
  },
  {
    name: "participle that goes on",
    text: "Switching to system mode saves battery at night.",
    ...SHIPPED,
    drift: "warn",
  },
  {
    name: "let's walks the user through settings",
    text: "Let's switch to system mode so the theme follows your OS.",
    ...SHIPPED,
    drift: "warn",
  },
  // Self announcements of a pack mode.
  { name: "let me", text: "Let me switch to system mode for this.", ...SHIPPED, drift: "strict" },
  { name: "I'll", text: "Sure. I'll switch to companion mode.", ...SHIPPED, drift: "strict" },
  { name: "now with a participle", text: "Now entering system mode.", ...SHIPPED, drift: "strict" },
  { name: "participle standing alone", text: "Entering system mode.", ...SHIPPED, drift: "strict" },
  {
    name: "participle standing alone before now",
    text: "Switching to companion mode now: tell me how you feel.",
    ...SHIPPED,
    drift: "strict",
  },
  {
    name: "a self announcement after advice wins",
    text: "Switch to system mode in Settings. I am switching to companion mode.",
    ...SHIPPED,
    drift: "strict",
  },
];

describe("mode_drift table", () => {
  const policy = createPolicyEngine().resolve({});
  if (!policy.ok) throw new Error("resolve failed");

  it.each(TABLE.map((row) => [row.name, row] as const))("%s", (_name, row) => {
    const decision = modeDecision({ modeLabel: row.active ?? "chat" });
    const result = lintOutput({
      text: row.text,
      modeDecision: decision,
      policy: policy.value,
      ...(row.modes === undefined ? {} : { modes: row.modes }),
    });
    const drift = result.violations.filter((v) => v.code === "mode_drift");
    expect(drift.map((v) => v.enforcement)).toEqual(row.drift === null ? [] : [row.drift]);
    expect(result.passed).toBe(row.drift !== "strict");
  });

  it("returns the advised pack mode as a warning (the review's example)", () => {
    const text = normalizeForMatch(
      "open settings > appearance. switch to system mode so the theme follows your os.",
    );
    expect(findModeSwitch(text, "assist", SHIPPED.modes)).toEqual({ mode: "system", strict: false });
  });
});
