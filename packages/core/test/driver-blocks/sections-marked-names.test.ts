import { DriverBlock } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { compileDriverBlocks } from "../../src/driver-blocks/compile.js";
import { hasSection, sectionLabel } from "../../src/driver-blocks/sections.js";

// A line's markdown markers and its colon are not part of the section name it carries, so a name
// written with them ("## Summary", "**Facts**", "Facts:") names the same section and can be met.
describe("section names written with markdown or a colon", () => {
  it("are found the way the plain name is", () => {
    expect(hasSection("## Summary:\nx", "## Summary")).toBe(true);
    expect(hasSection("Summary\nx", "## Summary")).toBe(true);
    expect(hasSection("**Facts**: x", "**Facts**")).toBe(true);
    expect(hasSection("1. Facts: x", "1. Facts")).toBe(true);
    expect(hasSection("Facts: rate is 5%", "Facts:")).toBe(true);
    expect(hasSection("Factsheet: x", "Facts:")).toBe(false);
  });

  it("are shown to the model and in messages without the markers", () => {
    expect(sectionLabel(" ## **Next steps**: ")).toBe("Next steps");
    const block = DriverBlock.parse({
      id: "u",
      version: 1,
      outputContract: { requiredSections: ["Facts:"] },
    });
    const policy = compileDriverBlocks([block]);
    expect(policy.ok && policy.value.promptConstraints.at(-1)).toBe(
      'Include these sections, each as its own line starting with the name and a colon: "Facts:".',
    );
  });

  it("must leave a name: markers alone are an invalid block", () => {
    const block = DriverBlock.parse({ id: "u", version: 1, outputContract: { requiredSections: ["##"] } });
    const policy = compileDriverBlocks([block]);
    expect(policy.ok).toBe(false);
    expect(!policy.ok && policy.issues.map((i) => [i.code, i.path])).toEqual([
      ["invalid_driver_block", ["blocks", 0, "outputContract", "requiredSections", 0]],
    ]);
  });
});
