import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeJson } from "../../src/store/sql/columns.js";

const LONE_SURROGATE = /\p{Cs}/u;

/** The reference rule: some key or string in the value holds NUL or an unpaired surrogate. */
function holdsUnstorable(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000") || LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(holdsUnstorable);
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).some(([k, v]) => holdsUnstorable(k) || holdsUnstorable(v));
  }
  return false;
}

// Strings rich in the characters that matter: backslashes, "u", NUL, both surrogate halves, pairs.
const tricky = fc
  .array(fc.constantFrom("\\", "u", "0", "d", "8", "a", "\u0000", "\ud800", "\udc00", "😀", "x", '"'), {
    maxLength: 12,
  })
  .map((parts) => parts.join(""));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    tricky,
    fc.string({ unit: "binary", maxLength: 8 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(tricky, tie("value"), { maxKeys: 3 }),
  ),
})).value;

describe("encodeJson", () => {
  it("property: rejects exactly the values holding NUL or a lone surrogate, else returns JSON.stringify", () => {
    fc.assert(
      fc.property(json, (value) => {
        if (holdsUnstorable(value)) {
          expect(() => encodeJson(value, "f")).toThrow(/NUL character or an unpaired surrogate/);
        } else {
          expect(encodeJson(value, "f")).toBe(JSON.stringify(value));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("accepts escaped look-alikes and rejects the real characters", () => {
    expect(encodeJson({ a: "\\u0000 and \\ud800" }, "f")).toBe(JSON.stringify({ a: "\\u0000 and \\ud800" }));
    expect(encodeJson(["😀"], "f")).toBe('["😀"]');
    expect(() => encodeJson({ a: "x\u0000" }, "f")).toThrow();
    expect(() => encodeJson({ "\ud800": 1 }, "f")).toThrow();
    expect(() => encodeJson(["\\\u0000"], "f")).toThrow();
    expect(() => encodeJson(undefined, "f")).toThrow(/not JSON-serialisable/);
  });
});
