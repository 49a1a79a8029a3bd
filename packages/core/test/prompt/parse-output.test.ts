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

  it("salvages a meta part that only runs over a length limit by cutting it to fit", () => {
    const long = "x".repeat(250);
    const over = {
      assistant_text: "Kept",
      meta: {
        shape: { arc: long, active: [long], parked: [], decisions: [], next: ["n"] },
        signals: [{ kind: "pivot", confidence: "high", summary: long }],
        action_needed: [
          {
            action_kind: "reminder",
            action_label: "L".repeat(100),
            action_summary_bullets: ["one", "two", "three", "four"],
            action_why: long,
          },
        ],
      },
    };
    const parsed = parseModelOutput(JSON.stringify(over));
    expect(parsed.formatViolation).toBe(true);
    expect(parsed.parse).toBe("salvaged");
    const meta = parsed.envelope.meta;
    expect(meta?.shape).toEqual({
      arc: "x".repeat(200),
      active: ["x".repeat(200)],
      parked: [],
      decisions: [],
      next: ["n"],
    });
    expect(meta?.signals).toEqual([{ kind: "pivot", confidence: "high", summary: "x".repeat(180) }]);
    expect(meta?.action_needed).toEqual([
      {
        action_kind: "reminder",
        action_label: "L".repeat(80),
        action_summary_bullets: ["one", "two", "three"],
        action_why: "x".repeat(200),
      },
    ]);
    expect(ModelOutputEnvelope.safeParse(parsed.envelope).success).toBe(true);
    // A cut never leaves half of a surrogate pair.
    const emoji = parseModelOutput(
      JSON.stringify({
        assistant_text: "k",
        meta: { shape: { ...over.meta.shape, arc: `${"a".repeat(199)}😀` } },
      }),
    );
    expect(emoji.envelope.meta?.shape?.arc).toBe("a".repeat(199));
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
