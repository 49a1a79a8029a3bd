import { stripTrailingGarbage, truncateDegeneration } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  normalizeWhitespace,
  stripCodeFences,
  stripSystemPromptLeaks,
  stripWrappingQuotes,
} from "../../src/agency/text-steps.js";

const idempotent = (step: (s: string) => string) =>
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc
          .array(
            fc.constantFrom("tree", "a", "b", ".", " ", "\n", '"', "```", "-", "42", "System: hi.", "\u201c"),
            {
              maxLength: 30,
            },
          )
          .map((a) => a.join("")),
      ),
      (x) => {
        const once = step(x);
        expect(step(once)).toBe(once);
      },
    ),
  );

describe("stripCodeFences", () => {
  it("removes fences and the language word of an opening fence line", () => {
    expect(stripCodeFences("```json\nI see a tree.\n```")).toBe("\nI see a tree.\n");
  });

  it("keeps single and double backticks around item names", () => {
    const text = "I need `oak_log` and ``stick``.";
    expect(stripCodeFences(text)).toBe(text);
  });

  it("leaves one space where a fence glued two words", () => {
    expect(stripCodeFences("foo```bar")).toBe("foo bar");
  });

  it("is idempotent", () => idempotent(stripCodeFences));
});

describe("stripWrappingQuotes", () => {
  it.each([
    ['"I see a tree."', "I see a tree."],
    ["\u201cCurly quotes.\u201d", "Curly quotes."],
    ["'single'", "single"],
    ['"Hey! How is it going?', "Hey! How is it going?"],
    [' "padded" ', "padded"],
  ])("strips %j", (input, expected) => {
    expect(stripWrappingQuotes(input)).toBe(expected);
  });

  it("leaves quotes that do not wrap the whole reply", () => {
    for (const text of ['He said "go"', '"a" and "b"', "It's fine"])
      expect(stripWrappingQuotes(text)).toBe(text);
  });

  it("is idempotent", () => idempotent(stripWrappingQuotes));
});

describe("stripSystemPromptLeaks", () => {
  it("removes a leaked instruction sentence at the start of a line", () => {
    expect(stripSystemPromptLeaks("You are an agent in Minecraft. I see a creeper.")).toBe(
      "I see a creeper.",
    );
  });

  it("removes consecutive leaked sentences and keeps the line structure", () => {
    expect(
      stripSystemPromptLeaks("Hello.\nSystem: be brief. Respond with one line. Real thought here."),
    ).toBe("Hello.\nReal thought here.");
  });

  it("accepts a custom prefix list and ignores prefixes in mid-line", () => {
    expect(stripSystemPromptLeaks("NOTE: secret. Visible.", ["note:"])).toBe("Visible.");
    const text = "I read: You are an agent.";
    expect(stripSystemPromptLeaks(text)).toBe(text);
  });

  it("is idempotent", () => idempotent((s) => stripSystemPromptLeaks(s)));
});

describe("truncateDegeneration", () => {
  it("cuts a word repeated four times, keeping one copy", () => {
    expect(truncateDegeneration("I walk to the tree tree tree tree tree")).toBe("I walk to the tree...");
  });

  it("keeps three repeats of a single word", () => {
    expect(truncateDegeneration("no no no, not there.")).toBe("no no no, not there.");
  });

  it("cuts a repeated n-gram loop", () => {
    expect(truncateDegeneration("I think the cat and the cat and the cat and the cat and")).toBe(
      "I think the cat and...",
    );
  });

  it("cuts repeated sentences and repeated lines", () => {
    expect(truncateDegeneration("I see a tree. I see a tree. I see a tree.")).toBe("I see a tree.");
    const line = "A long line that has well over twelve words in it so word loops miss it";
    expect(truncateDegeneration(`Start.\n${line}\n${line}\n${line}\nEnd`)).toBe(`Start.\n${line}...`);
  });

  it("leaves ordinary text alone", () => {
    const text = "I see an oak tree to the north. I will collect some logs, then craft a table.";
    expect(truncateDegeneration(text)).toBe(text);
  });

  it("is idempotent", () => idempotent(truncateDegeneration));
});

describe("stripTrailingGarbage", () => {
  it.each([
    ["I should explore. 42", "I should explore."],
    ["I found wood. Then I", "I found wood."],
    ["I found wood. Walk to the", "I found wood."],
    ["I found wood. I will walk over to the", "I found wood. I will walk over to the"],
    ["Wood is low. Need to", "Wood is low."],
    // Up to four words without end punctuation after the last sentence: a cut-off tail (origin rule).
    ["I will mine. then go", "I will mine."],
    ["I should explore. I am curious", "I should explore."],
    ["Wood is low. Need 8 more", "Wood is low."],
    ["Night is near! Build a shelter now", "Night is near!"],
    ["Is it night? maybe", "Is it night?"],
    // Five words are a sentence missing its full stop; a text with no sentence end is kept whole.
    ["Wood is low. I will get some more", "Wood is low. I will get some more"],
    ["I will mine then go", "I will mine then go"],
    ["Night is near. Build shelter.", "Night is near. Build shelter."],
    // An abbreviation or a list number is no sentence end.
    ["I could use wood, e.g. oak logs", "I could use wood, e.g. oak logs"],
    ["I will follow Mr. Steve", "I will follow Mr. Steve"],
    // Only the last line is looked at: lines are structure (Contract B).
    ["I see wood.\nthen go", "I see wood.\nthen go"],
    ["I need wood, -- *", "I need wood"],
    ["I need 8", "I need 8"],
    ["Plan:\n1. get wood\n2. craft table", "Plan:\n1. get wood\n2. craft table"],
    ["I see a tree. I will walk over there", "I see a tree. I will walk over there"],
    ["Done (finally)", "Done (finally)"],
    // Chat-template control tokens go whole, never half of one.
    ["I will mine. <|endoftext|>", "I will mine."],
    ["ok <|eot_id|> <|end_of_text|>\n", "ok"],
    ["Done.</s>", "Done."],
    ["x < y", "x < y"],
  ])("%j -> %j", (input, expected) => {
    expect(stripTrailingGarbage(input)).toBe(expected);
  });

  it("is idempotent", () => idempotent(stripTrailingGarbage));
});

describe("normalizeWhitespace (Contract B)", () => {
  it("collapses spaces, trims lines, keeps line breaks and at most one blank line", () => {
    expect(normalizeWhitespace("  a   b \t c \r\n\r\n\r\n\n  d  \n\n")).toBe("a b c\n\nd");
  });

  it("never collapses a multi-line text into one line", () => {
    expect(normalizeWhitespace("line one\nline two")).toBe("line one\nline two");
  });

  it("is idempotent", () => idempotent(normalizeWhitespace));
});
