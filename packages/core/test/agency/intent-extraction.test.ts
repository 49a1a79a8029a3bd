import { extractIntent } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripInlineIntent, VALID_INTENTS } from "../../src/agency/intent.js";

describe("extractIntent", () => {
  it("pass 1: INTENT as the last non-empty line is compliant (final_line) and stripped", () => {
    expect(extractIntent("I see oak trees nearby.\nINTENT: gather\n\n")).toEqual({
      text: "I see oak trees nearby.",
      intent: "gather",
      intentParse: "final_line",
    });
  });

  it("pass 2: INTENT mid-text is inline_noncompliant and stripped", () => {
    expect(extractIntent("I will explore. INTENT: explore I notice a tree.")).toEqual({
      text: "I will explore. I notice a tree.",
      intent: "explore",
      intentParse: "inline_noncompliant",
    });
  });

  it("returns null intentParse and the text unchanged when there is no token", () => {
    const text = "  Nothing to report here.\n";
    expect(extractIntent(text)).toEqual({ text, intent: null, intentParse: null });
  });

  it("strips unknown labels but gives intent null (fail-closed)", () => {
    expect(extractIntent("Hmm.\nINTENT: teleport")).toEqual({
      text: "Hmm.",
      intent: null,
      intentParse: "final_line",
    });
    expect(extractIntent("Go INTENT: conquer now")).toEqual({
      text: "Go now",
      intent: null,
      intentParse: "inline_noncompliant",
    });
  });

  it("accepts every VALID_INTENTS label in any case", () => {
    for (const label of VALID_INTENTS) {
      expect(extractIntent(`ok\nintent: ${label.toUpperCase()}`).intent).toBe(label);
    }
  });

  it("also removes inline tokens when the final line is compliant", () => {
    const r = extractIntent("First INTENT: mine line.\nINTENT: craft");
    expect(r).toEqual({ text: "First line.", intent: "craft", intentParse: "final_line" });
  });

  it("removes a final INTENT line whole, taking the label from its first word", () => {
    const finalLine = (text: string, intent: string | null) => ({ text, intent, intentParse: "final_line" });
    expect(extractIntent("I go.\nINTENT: explore!")).toEqual(finalLine("I go.", "explore"));
    expect(extractIntent("I go.\nINTENT: [explore]")).toEqual(finalLine("I go.", "explore"));
    expect(extractIntent('I go.\nINTENT: "explore"')).toEqual(finalLine("I go.", "explore"));
    expect(extractIntent("Some text\nINTENT: explore the cave")).toEqual(finalLine("Some text", "explore"));
    expect(extractIntent("Line one\n\nLine two\nintent: **Mine**, then rest.\n")).toEqual(
      finalLine("Line one\n\nLine two", "mine"),
    );
    expect(extractIntent("Hmm.\nINTENT: (teleport) now")).toEqual(finalLine("Hmm.", null));
  });

  it("removes any last line that starts with INTENT:, whatever follows the token", () => {
    const rest = fc.string({ maxLength: 40 }).filter((r) => !/[\n\r\u2028\u2029]/.test(r));
    fc.assert(
      fc.property(rest, (r) => {
        const out = extractIntent(`Thinking.\nINTENT:${r}`);
        expect(out.text).toBe("Thinking.");
        expect(out.intentParse).toBe("final_line");
        if (out.intent !== null) expect(r.toLowerCase()).toContain(out.intent);
      }),
    );
  });

  it("treats a bare INTENT: final line as a token with no label", () => {
    expect(extractIntent("Done.\nINTENT:")).toEqual({
      text: "Done.",
      intent: null,
      intentParse: "final_line",
    });
  });

  it("does not treat INTENT: inside another word as a token", () => {
    const text = "MYINTENT: keep";
    expect(extractIntent(text)).toEqual({ text, intent: null, intentParse: null });
  });

  it("never promotes an unknown label to a non-null intent", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_]{1,12}$/), fc.boolean(), (label, finalLine) => {
        const text = finalLine ? `Thinking.\nINTENT: ${label}` : `Thinking INTENT: ${label} more.`;
        const r = extractIntent(text);
        expect(r.intent).toBe((VALID_INTENTS as readonly string[]).includes(label) ? label : null);
        expect(r.text.toLowerCase()).not.toContain("intent:");
      }),
    );
  });
});

describe("stripInlineIntent (Contract B)", () => {
  it("preserves every newline and touches only horizontal whitespace around the token", () => {
    const text = "Line one INTENT: explore\n\nLine  two\n\tINTENT: mine   indented\n";
    expect(stripInlineIntent(text)).toBe("Line one\n\nLine  two\nindented\n");
  });

  it("never changes the number of line breaks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("INTENT: explore", "INTENT:", "word", " ", "\t", "\n", ".", "intent: x"), {
          maxLength: 30,
        }),
        (parts) => {
          const text = parts.join("");
          const count = (s: string) => s.split("\n").length;
          expect(count(stripInlineIntent(text))).toBe(count(text));
        },
      ),
    );
  });

  it("removes tokens that only appear once another token is gone", () => {
    expect(stripInlineIntent("INTENT INTENT: :x").toLowerCase()).not.toContain("intent:");
  });
});
