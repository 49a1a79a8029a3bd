import { describe, expect, it } from "vitest";
import { modesFromRows, parseCsv, readBanking77 } from "../../../scripts/banking77.mjs";

describe("Banking77 CSV loading (bench and tests)", () => {
  it("parses quoted fields with commas, doubled quotes, line breaks and CRLF", () => {
    const text = 'text,category\r\n"Hi, there",a\r\n"She said ""no""",b\n"two\nlines",c\nplain,d';
    expect(parseCsv(text)).toEqual([
      ["text", "category"],
      ["Hi, there", "a"],
      ['She said "no"', "b"],
      ["two\nlines", "c"],
      ["plain", "d"],
    ]);
  });

  it("reads both splits in full and builds one mode per category from the first examples", () => {
    const train = readBanking77("train");
    const test = readBanking77("test");
    expect(train.length).toBe(10_003);
    expect(test.length).toBe(3_080);
    expect(new Set(test.map((r) => r.category)).size).toBe(77);
    const modes = modesFromRows(train, 50);
    expect(modes).toHaveLength(77);
    expect(modes.every((m) => m.examples.length > 0 && m.examples.length <= 50)).toBe(true);
    expect(modes[0]?.examples[0]).toBe(train[0]?.text);
  });
});
