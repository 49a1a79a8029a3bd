import { describe, expect, it } from "vitest";
import {
  inspectJson,
  MAX_JSON_DEPTH,
  mayHoldUnstorableText,
  nestedDeeperThan,
  scanJsonShape,
} from "../../src/http/json-inspect.js";

const chain = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

describe("nestedDeeperThan: one scan of the raw text", () => {
  it("counts objects and arrays, up to and past the bound", () => {
    expect(nestedDeeperThan(chain(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(chain(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    // The root object is level 1, so `a`'s three arrays reach level 4.
    expect(nestedDeeperThan(`{"a":${chain(3)},"b":{"c":[{}]}}`, 4)).toBe(false);
    expect(nestedDeeperThan(`{"a":${chain(3)},"b":{"c":[{}]}}`, 3)).toBe(true);
  });

  it("ignores brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ a: "[[[[{{{{", b: 'x\\"[[[[', c: "\\" });
    expect(nestedDeeperThan(text, 1)).toBe(false);
    expect(nestedDeeperThan(JSON.stringify({ a: '"', b: [[1]] }), 2)).toBe(true);
  });

  it("agrees with the tree walk on the depth it refuses", () => {
    for (const n of [MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1]) {
      const text = chain(n);
      expect(nestedDeeperThan(text, MAX_JSON_DEPTH)).toBe(inspectJson(JSON.parse(text)) !== null);
    }
  });
});

describe("inspectJson", () => {
  it("names each field with unstorable text, an object's keys before its values, building paths from parents", () => {
    const text = '{"a":{"b":["ok","\\u0000"]},"c\\ud800":1,"d":"\\udc00"}';
    expect(mayHoldUnstorableText(text)).toBe(true);
    const problem = inspectJson(JSON.parse(text));
    expect(problem?.details).toEqual([
      { path: "body", message: "contains a NUL character or an unpaired surrogate" },
      { path: "a.b.1", message: "contains a NUL character or an unpaired surrogate" },
      { path: "d", message: "contains a NUL character or an unpaired surrogate" },
    ]);
  });

  it("a body without an escape that could hide unstorable text is not walked", () => {
    expect(mayHoldUnstorableText('{"a":"\\u00e9 \\ud83d\\ude00 plain"}')).toBe(true);
    expect(mayHoldUnstorableText('{"a":"\\u00e9 plain","b":[1,2]}')).toBe(false);
    expect(inspectJson(JSON.parse('{"a":"\\ud83d\\ude00"}'))).toBeNull();
  });
});

describe("scanJsonShape: depth and value count in one scan", () => {
  it("counts values (commas and openings outside strings) against the limit", () => {
    const many = JSON.stringify(Array.from({ length: 100 }, (_, i) => i));
    expect(scanJsonShape(many, 8, 101)).toBeNull();
    expect(scanJsonShape(many, 8, 100)).toBe("too_many_values");
    // Commas and brackets inside strings are text, not values.
    expect(scanJsonShape(JSON.stringify({ a: ",,,,[[[[,,,," }), 1, 3)).toBeNull();
    expect(scanJsonShape(chain(5), 4, 1000)).toBe("too_deep");
  });
});
