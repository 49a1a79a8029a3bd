import { createPolicyEngine, type PolicyEngine, type PolicyRequest } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { memoizePolicyEngine } from "../../src/orchestrator/policy-cache.js";

/** The real engine, counting the compiles that reach it. */
function countingEngine(): { engine: PolicyEngine; compiles: () => number } {
  const real = createPolicyEngine();
  let n = 0;
  return {
    engine: {
      ...real,
      resolve: (request) => {
        n++;
        return real.resolve(request);
      },
    },
    compiles: () => n,
  };
}

const block = (id: string, constraint: string) => ({
  id,
  version: 1,
  title: `Block ${id}`,
  promptConstraints: [constraint],
});

describe("memoizePolicyEngine", () => {
  it("compiles a request once, inline blocks included, and returns the same result as the engine", () => {
    const { engine, compiles } = countingEngine();
    const cached = memoizePolicyEngine(engine);
    const request: PolicyRequest = { modeLabel: "assist", driverBlockInline: [block("brief", "Be brief.")] };
    const first = cached.resolve(request);
    expect(first).toEqual(createPolicyEngine().resolve(request));
    expect(first.ok).toBe(true);
    // The same content in new objects, keys in another order: a hit.
    const again = cached.resolve({
      driverBlockInline: [
        { promptConstraints: ["Be brief."], title: "Block brief", version: 1, id: "brief" },
      ],
      modeLabel: "assist",
    });
    expect(again).toBe(first);
    expect(compiles()).toBe(1);
  });

  it("compiles again when anything the policy depends on differs", () => {
    const { engine, compiles } = countingEngine();
    const cached = memoizePolicyEngine(engine);
    const base: PolicyRequest = { modeLabel: "assist", driverBlockInline: [block("brief", "Be brief.")] };
    const a = cached.resolve(base);
    const b = cached.resolve({ ...base, driverBlockInline: [block("brief", "Answer in French.")] });
    cached.resolve({ ...base, modeLabel: "plan" });
    cached.resolve({ ...base, driverBlockMode: "custom" });
    cached.resolve({ modeLabel: "assist" });
    expect(compiles()).toBe(5);
    expect(JSON.stringify(a)).toContain("Be brief.");
    expect(JSON.stringify(b)).toContain("Answer in French.");
    expect(JSON.stringify(b)).not.toContain("Be brief.");
  });

  it("keeps at most `capacity` entries, dropping the least recently used", () => {
    const { engine, compiles } = countingEngine();
    const cached = memoizePolicyEngine(engine, 2);
    const req = (n: number): PolicyRequest => ({ driverBlockInline: [block(`b${n}`, `Rule ${n}.`)] });
    cached.resolve(req(1));
    cached.resolve(req(2));
    cached.resolve(req(1)); // 1 is now the most recent
    cached.resolve(req(3)); // evicts 2
    expect(compiles()).toBe(3);
    cached.resolve(req(1));
    expect(compiles()).toBe(3);
    cached.resolve(req(2));
    expect(compiles()).toBe(4);
  });

  it("does not keep a request whose blocks are too large to be worth a key", () => {
    const { engine, compiles } = countingEngine();
    const cached = memoizePolicyEngine(engine);
    const huge: PolicyRequest = {
      driverBlockInline: Array.from({ length: 100 }, (_, i) => block(`big${i}`, "x".repeat(6000))),
    };
    const first = cached.resolve(huge);
    cached.resolve(huge);
    expect(compiles()).toBe(2);
    expect(cached.resolve(huge)).toEqual(first);
  });
});
