import { createEnvelopeStreamParser, parseModelOutput } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Feeds `text` cut at `cuts` and returns what the parser emitted, joined. */
function streamed(text: string, cuts: readonly number[]): string {
  const parser = createEnvelopeStreamParser();
  const points = [...new Set(cuts)].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b);
  let out = "";
  let from = 0;
  for (const at of [...points, text.length]) {
    out += parser.push(text.slice(from, at));
    from = at;
  }
  return out + parser.end();
}

const everyCut = (text: string) => Array.from({ length: text.length }, (_, i) => i);

describe("createEnvelopeStreamParser", () => {
  it("decodes assistant_text with every escape, whatever the chunking", () => {
    const value = 'Line "one"\n\ttab \\ slash / é \u00e9 \ud83d\ude00 done\u2028';
    const raw = JSON.stringify({ assistant_text: value, meta: { signals: [] } });
    // \uXXXX escapes written out, as some models do.
    const escaped = raw.replace("é", "\\u00e9").replace("\ud83d\ude00", "\\ud83d\\ude00");
    for (const text of [raw, escaped]) {
      expect(streamed(text, [])).toBe(value);
      for (let cut = 1; cut < text.length; cut++) expect(streamed(text, [cut])).toBe(value);
      expect(streamed(text, everyCut(text))).toBe(value);
    }
  });

  it("never emits half of a surrogate pair", () => {
    const text = JSON.stringify({ assistant_text: "a\ud83d\ude00b" }).replace(
      "\ud83d\ude00",
      "\\ud83d\\ude00",
    );
    const parser = createEnvelopeStreamParser();
    const pieces = [...text].map((ch) => parser.push(ch)).filter((p) => p !== "");
    for (const piece of pieces) {
      const last = piece.charCodeAt(piece.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
    expect(pieces.join("")).toBe("a\ud83d\ude00b");
  });

  it("reads keys in any order and ignores nested text keys", () => {
    const text = JSON.stringify({
      meta: { shape: { arc: "x", active: [], parked: [], decisions: [], next: [] }, text: "nested" },
      assistant_text: "the reply",
    });
    expect(streamed(text, everyCut(text))).toBe("the reply");
  });

  it("streams an alias key when the model used one", () => {
    expect(streamed('{"response": "hi there", "meta": {}}', [3, 9, 14])).toBe("hi there");
  });

  it("opens a code-fenced envelope as JSON", () => {
    const text = '```json\n{"assistant_text": "fenced"}\n```';
    expect(streamed(text, everyCut(text))).toBe("fenced");
  });

  it("passes plain text through", () => {
    const text = "Just a plain answer, no JSON.";
    const parser = createEnvelopeStreamParser();
    expect(parser.push("  ")).toBe("");
    expect(parser.mode).toBe("pending");
    expect(
      parser.push("Just") + parser.push(" a plain answer,") + parser.push(" no JSON.") + parser.end(),
    ).toBe(`  ${text}`);
    expect(parser.mode).toBe("plain");
  });

  it("agrees with parseModelOutput on any envelope under any chunking (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 60 }),
        fc.boolean(),
        fc.array(fc.nat({ max: 200 }), { maxLength: 12 }),
        (value, metaFirst, cuts) => {
          const envelope = metaFirst
            ? { meta: { signals: [{ kind: "decision_made", confidence: "low" }] }, assistant_text: value }
            : { assistant_text: value, meta: {} };
          const text = JSON.stringify(envelope);
          expect(streamed(text, cuts)).toBe(parseModelOutput(text).envelope.assistant_text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
