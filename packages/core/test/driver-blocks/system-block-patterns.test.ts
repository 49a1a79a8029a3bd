import { createPolicyEngine, validateSystemBlocks } from "@solserver/core";
import { describe, expect, it } from "vitest";

const withPattern = (pattern: string) => ({ id: "house", version: "1", validators: { mustNot: [pattern] } });

// A system block with a pattern that cannot compile is a configuration error, found when the set is
// validated (server start), not a 400 blamed on every request that names the block by ref.
describe("validateSystemBlocks", () => {
  it("refuses a block whose pattern does not compile, naming the block and the pattern", () => {
    const result = validateSystemBlocks([{ id: "fine", version: "1" }, withPattern("*")]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      {
        code: "invalid_driver_block",
        message: 'systemBlocks[1]: pattern "*" is empty',
        path: ["systemBlocks", 1, "validators", "mustNot", 0],
      },
    ]);
    expect(() => createPolicyEngine({ systemBlocks: [withPattern("a/b c/d e/f g/h i/j k/l m/n")] })).toThrow(
      /systemBlocks\[0\]: pattern "a\/b c\/d/,
    );
  });

  it("accepts blocks whose patterns compile", () => {
    expect(validateSystemBlocks([withPattern("I sent/added it")]).ok).toBe(true);
  });
});
