import { createPolicyEngine, validateSystemBlocks } from "@solserver/core";
import { describe, expect, it } from "vitest";

// A ref is an {id, version} pair: "@" inside an id or a version must not make two blocks one.
describe("refs with @ in an id or a version", () => {
  const systemBlocks = [
    { id: "team@acme", version: "2", promptConstraints: ["Team rule."] },
    { id: "team", version: "acme@2", promptConstraints: ["Other rule."] },
  ];

  it("are distinct system blocks", () => {
    expect(validateSystemBlocks(systemBlocks).ok).toBe(true);
  });

  it("resolve to the block with that id and version", () => {
    const engine = createPolicyEngine({ systemBlocks, baselineRefs: [] });
    const result = engine.resolve({ driverBlockRefs: [{ id: "team", version: "acme@2" }] });
    expect(result.ok && result.value.blocks.map((b) => b.id)).toEqual(["team"]);
    expect(result.ok && result.value.promptConstraints).toEqual(["Other rule."]);
  });
});
