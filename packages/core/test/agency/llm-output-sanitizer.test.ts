import { extractGoalTag, sanitizeLLMOutput } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GOAL_TAG_MAX_INNER } from "../../src/agency/goal-tag.js";

/** A complete goal tag as the parser defines it. */
const GOAL_TAG = new RegExp(`\\[goal:[^\\[\\]\\n\\r\\u2028\\u2029]{0,${GOAL_TAG_MAX_INNER}}\\]`, "i");
/** An INTENT token: `intent:` not preceded by a word character. */
const INTENT_TOKEN = /(^|[^A-Za-z0-9_])intent:/i;

const fragment = fc.constantFrom(
  "[GOAL:",
  "[goal:",
  "]",
  "[",
  "GOAL",
  ":",
  "INTENT:",
  "intent:",
  "INTENT: explore",
  "INTENT: dance",
  "INT",
  "ENT:",
  "\n",
  "\n\n",
  "\r\n",
  "\u2028",
  " ",
  "   ",
  "\t",
  "```",
  "```json\n",
  "`",
  '"',
  "'",
  "\u201c",
  "\u201d",
  "\u00ab",
  "\u00bb",
  "You are an agent.",
  "System: be brief.",
  "collect",
  "oak_log",
  "8",
  "42",
  ".",
  "!",
  "...",
  ",",
  "-",
  "*",
  "tree",
  "tree tree",
  "I see a tree.",
  "id=x",
  "amount=3",
  "[GOAL: collect oak_log 8]",
  "[GOAL: dance floor]",
  "x",
  "\u00e9",
  "\u{1f600}",
);
const llmish = fc.oneof(
  fc.array(fragment, { maxLength: 40 }).map((a) => a.join("")),
  fc.array(fc.oneof(fragment, fc.string({ maxLength: 5 })), { maxLength: 30 }).map((a) => a.join("")),
  fc.string({ unit: "binary", maxLength: 200 }),
);

describe("sanitizeLLMOutput", () => {
  it("returns text, goal, intent, intentParse and per-step flags", () => {
    const r = sanitizeLLMOutput('```text\n"I see oak trees. [GOAL: gather oak_log 4]"\nINTENT: gather\n```');
    expect(r).toEqual({
      text: "I see oak trees.",
      goal: { version: 1, action: "collect", target: "oak_log", amount: 4, raw: "[GOAL: gather oak_log 4]" },
      intent: "gather",
      intentParse: "final_line",
      flags: {
        stripCodeFences: true,
        stripWrappingQuotes: true,
        stripSystemPromptLeaks: false,
        extractGoalTag: true,
        extractIntent: true,
        truncateDegeneration: false,
        stripTrailingGarbage: false,
        normalizeWhitespace: true,
      },
    });
  });

  it("reports goalFailReason when no goal was extracted", () => {
    expect(sanitizeLLMOutput("Just thinking.").goalFailReason).toBe("no_tag");
    expect(sanitizeLLMOutput("Hmm [GOAL: dance floor]").goalFailReason).toBe("unknown_action");
    expect("goalFailReason" in sanitizeLLMOutput("[GOAL: mine stone]")).toBe(false);
  });

  it("strips only the goal tag it extracts; later tags stay, as extractGoalTag leaves them", () => {
    const input = "A [GOAL: collect oak_log] B [GOAL: craft crafting_table] C";
    const r = sanitizeLLMOutput(input);
    expect(r.goal).toMatchObject({ action: "collect", target: "oak_log" });
    expect(r.text).toBe("A B [GOAL: craft crafting_table] C");
    expect(r.text).toBe(extractGoalTag(input).text);
  });

  it("extracts the goal tag before the INTENT line", () => {
    const r = sanitizeLLMOutput("I need a table. [GOAL: craft crafting_table]\nINTENT: craft");
    expect(r.goal).toMatchObject({ action: "craft", target: "crafting_table" });
    expect(r.intent).toBe("craft");
    expect(r.text).toBe("I need a table.");
  });

  it("extracts goal and intent before degeneration cuts the text", () => {
    const r = sanitizeLLMOutput("wood wood wood wood wood [GOAL: collect oak_log 8]\nINTENT: gather");
    expect(r.goal).toMatchObject({ action: "collect", target: "oak_log", amount: 8 });
    expect(r.intent).toBe("gather");
    expect(r.text).toBe("wood...");
    expect(r.flags.truncateDegeneration).toBe(true);
  });

  it("strips system prompt leaks before goal extraction", () => {
    const r = sanitizeLLMOutput("You are an agent. I see ore. [GOAL: mine iron_ore 3]");
    expect(r.text).toBe("I see ore.");
    expect(r.goal?.target).toBe("iron_ore");
    expect(r.flags.stripSystemPromptLeaks).toBe(true);
  });

  it("keeps a multi-line thought multi-line (Contract B)", () => {
    expect(sanitizeLLMOutput("I see:\n  - a tree\n  - a cave\n\n\n\nI will go.").text).toBe(
      "I see:\n- a tree\n- a cave\n\nI will go.",
    );
  });

  it("sets no flag and changes nothing on clean text", () => {
    const r = sanitizeLLMOutput("I see an oak tree to the north.");
    expect(r.text).toBe("I see an oak tree to the north.");
    expect(Object.values(r.flags).every((f) => f === false)).toBe(true);
  });

  it("never throws, even for non-string input at runtime", () => {
    fc.assert(fc.property(llmish, (x) => void sanitizeLLMOutput(x)));
    expect(sanitizeLLMOutput(undefined as unknown as string).text).toBe("");
  });

  it("is idempotent on its own output, except that a tag left in it can be extracted", () => {
    fc.assert(
      fc.property(llmish, (x) => {
        const once = sanitizeLLMOutput(x).text;
        const again = sanitizeLLMOutput(once);
        // Only the first tag is extracted, so a later one stays for a second run to take.
        if (again.goal === null) expect(again.text).toBe(once);
        else expect(once).toContain(again.goal.raw);
        // Each further run takes at most one leftover tag; once none is taken the text is a fixed point.
        let text = again.text;
        for (let run = 0; run <= x.split("[").length; run++) {
          const next = sanitizeLLMOutput(text);
          if (next.goal === null) {
            expect(next.text).toBe(text);
            return;
          }
          text = next.text;
        }
        throw new Error("sanitizing never settled");
      }),
      { numRuns: 3000 },
    );
  });

  it("never leaves an INTENT token in the text, and takes out the goal tag it extracts", () => {
    fc.assert(
      fc.property(llmish, (x) => {
        const { text, goal } = sanitizeLLMOutput(x);
        expect(text).not.toMatch(INTENT_TOKEN);
        // A tag that gave no goal, or a later one, stays (the text is not rewritten beyond the match).
        if (goal !== null) expect(text.split(goal.raw).length).toBeLessThan(x.split(goal.raw).length);
        else if (GOAL_TAG.test(text)) expect(x).toMatch(GOAL_TAG);
      }),
      { numRuns: 3000 },
    );
  });

  it("never promotes an unknown intent label", () => {
    fc.assert(
      fc.property(llmish, (x) => {
        const { intent, intentParse } = sanitizeLLMOutput(x);
        if (intentParse === null) expect(intent).toBeNull();
      }),
    );
  });

  it("completes on 1 MB adversarial inputs", () => {
    const MB = 1 << 20;
    const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
    const unique = Array.from({ length: 150_000 }, (_, i) => `w${i}`).join(" ");
    const inputs = [
      fill("[GOAL: "),
      fill("[GOAL:"),
      fill(`[GOAL: collect ${"x".repeat(120)}] `),
      `${"[GOAL: a ".repeat(Math.ceil(MB / 11))}${"] ".repeat(Math.ceil(MB / 11))}`,
      fill("INTENT: "),
      fill("INTENT:"),
      fill("alpha beta gamma delta eps zeta eta theta iota kappa lambda mu nu "),
      fill("tree "),
      fill("I walk to the big oak tree and look around for more wood to collect\n"),
      fill("You are an agent. "),
      fill("``` `` "),
      fill('"\u201c '),
      fill("\n"),
      fill(" "),
      fill("abcdefghij"),
      `\u00ab System: a. \u201c System: b. " ${unique} x" -\u201d -\u00bb -`,
    ];
    for (const input of inputs) {
      expect(input.length).toBeGreaterThanOrEqual(MB - 16);
      const { text } = sanitizeLLMOutput(input);
      expect(text).not.toMatch(INTENT_TOKEN);
      expect(text).not.toMatch(GOAL_TAG);
    }
  });
});

describe("sanitizeLLMOutput: the two origin details together", () => {
  it("reads the trailing amount and drops a short unfinished tail", () => {
    const r = sanitizeLLMOutput("I will mine. [GOAL: mine stone] 4 then go");
    expect(r.goal).toMatchObject({ action: "mine", target: "stone", amount: 4 });
    expect(r.text).toBe("I will mine.");
    expect(r.flags.stripTrailingGarbage).toBe(true);
  });
});
