import { describe, expect, it } from "vitest";
import { findMissingSections, hasSection } from "../../src/driver-blocks/sections.js";

describe("required sections", () => {
  it.each([
    ["Facts:", true],
    ["Facts: the rate is 5%", true],
    ["## Facts", true],
    ["**Facts:**", true],
    ["**Facts**: rate", true],
    ["- Facts — known", true],
    ["1. Facts", true],
    ["> facts (verified)", true],
    ["FACTS", true],
    ["Facts are stubborn things", false],
    ["Factsheet", false],
    ["The facts: none", false],
    ["", false],
  ])("%j -> %s", (line, expected) => {
    expect(hasSection(`intro\n${line}\noutro`, "Facts")).toBe(expected);
  });

  it("lists the missing sections in order", () => {
    expect(findMissingSections("Decisions: none\nother", ["Receipt", "Decisions", "Next"])).toEqual([
      "Receipt",
      "Next",
    ]);
  });

  it("supports multi-word section names", () => {
    expect(hasSection("### Open loop: call back", "Open loop")).toBe(true);
    expect(hasSection("Open loops", "Open loop")).toBe(false);
  });
});
