import { describe, expect, it } from "vitest";
import { truncatedEnvelopeText } from "../../src/orchestrator/truncated-envelope.js";

describe("truncatedEnvelopeText", () => {
  it("recovers the assistant_text of an envelope cut off at the token limit", () => {
    expect(truncatedEnvelopeText('{"assistant_text": "The first step is to')).toBe("The first step is to");
    expect(truncatedEnvelopeText('  {\n "assistant_text":"line\\nbreak and \\"quotes\\"')).toBe(
      'line\nbreak and "quotes"',
    );
    // The text was complete; the cut came later, inside meta.
    expect(truncatedEnvelopeText('{"assistant_text": "Done.", "meta": {"shape": {"arc": "Pla')).toBe("Done.");
    expect(truncatedEnvelopeText('{"assistant_text": "')).toBe("");
  });

  it("drops an escape cut in half", () => {
    expect(truncatedEnvelopeText('{"assistant_text": "caf\\u00')).toBe("caf");
    expect(truncatedEnvelopeText('{"assistant_text": "a\\')).toBe("a");
  });

  it("gives no text for a cut before the value began", () => {
    for (const cut of [
      "{",
      '{"',
      '{"as',
      ' { "assistant_text"',
      '{"assistant_text" :',
      '{"assistant_text":',
    ]) {
      expect(truncatedEnvelopeText(cut)).toBe("");
    }
    expect(truncatedEnvelopeText('{"answer')).toBeNull();
    expect(truncatedEnvelopeText('{"assis tant')).toBeNull();
    expect(truncatedEnvelopeText('{"assistant_text": 4')).toBeNull();
  });

  it("is null for text that does not start like an envelope", () => {
    expect(truncatedEnvelopeText("Plain words cut off")).toBeNull();
    expect(truncatedEnvelopeText('{"meta": {}, "assistant_text": "x')).toBeNull();
  });
});
