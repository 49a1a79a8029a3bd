import { ModelOutputEnvelope, parseModelOutput } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const envelope = {
  assistant_text: "Hello {there}",
  meta: {
    shape: { arc: "a", active: [], parked: [], decisions: ["d"], next: [] },
    signals: [{ kind: "ack_only", confidence: "low" }],
  },
};
const json = JSON.stringify(envelope);

describe("parseModelOutput", () => {
  it("accepts exactly one JSON envelope", () => {
    expect(parseModelOutput(json)).toEqual({ envelope, formatViolation: false, parse: "exact" });
    expect(parseModelOutput(`  \n${json}\n`).parse).toBe("exact");
  });

  it("tolerates code fences and surrounding prose", () => {
    for (const text of [
      `\`\`\`json\n${json}\n\`\`\``,
      `Sure! Here you go: ${json} Hope it helps {`,
      `{not json} ${json}`,
    ]) {
      expect(parseModelOutput(text)).toEqual({ envelope, formatViolation: false, parse: "extracted" });
    }
  });

  it("finds a valid envelope nested in a wrapper object", () => {
    expect(parseModelOutput(`{"response": ${json}}`).envelope).toEqual(envelope);
  });

  it("salvages assistant_text and the valid meta parts of an invalid envelope", () => {
    const broken = {
      assistant_text: "Kept",
      extra: true,
      meta: {
        shape: { arc: "" },
        signals: [
          { kind: "pivot", confidence: "high" },
          { kind: "nope", confidence: "x" },
        ],
      },
    };
    expect(parseModelOutput(JSON.stringify(broken))).toEqual({
      envelope: { assistant_text: "Kept", meta: { signals: [{ kind: "pivot", confidence: "high" }] } },
      formatViolation: true,
      parse: "salvaged",
    });
    expect(parseModelOutput('{"assistant_text": "x", "meta": 3}').envelope).toEqual({ assistant_text: "x" });
  });

  it("falls back to plain text as assistant_text with a format violation", () => {
    for (const text of [
      "Just prose.",
      '{"assistant_text": 5}',
      '{"assistant_text": "unterminated',
      '"a json string"',
      "[1,2]",
      "",
    ]) {
      expect(parseModelOutput(text)).toEqual({
        envelope: { assistant_text: text.trim() },
        formatViolation: true,
        parse: "plain_text",
      });
    }
  });

  it("round-trips any valid envelope, and always returns a valid envelope (property)", () => {
    const text = fc.string({ maxLength: 80 });
    fc.assert(
      fc.property(text, text, (assistantText, prose) => {
        const env = { assistant_text: assistantText };
        expect(parseModelOutput(JSON.stringify(env)).envelope).toEqual(env);
        const parsed = parseModelOutput(prose);
        expect(ModelOutputEnvelope.safeParse(parsed.envelope).success).toBe(true);
        if (parsed.parse === "plain_text") expect(parsed.envelope.assistant_text).toBe(prose.trim());
      }),
    );
  });

  it("bounds its work on brace-heavy garbage and still answers", () => {
    const garbage = "{".repeat(5000) + "}".repeat(10);
    expect(parseModelOutput(garbage)).toMatchObject({ formatViolation: true, parse: "plain_text" });
  });
});
