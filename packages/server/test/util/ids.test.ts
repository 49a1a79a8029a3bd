import { describe, expect, it } from "vitest";
import { randomIds, randomTraceId } from "../../src/util/ids.js";

describe("randomTraceId", () => {
  it("gives 32 hex digits, never all zero, distinct across several refills of its pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = randomTraceId();
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(id).not.toBe("0".repeat(32));
      seen.add(id);
    }
    expect(seen.size).toBe(2000);
  });
});

describe("randomIds", () => {
  it("prefixes, orders by creation time and stays unique", () => {
    const ids = Array.from({ length: 500 }, () => randomIds("tx"));
    for (const id of ids) expect(id).toMatch(/^tx_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const times = ids.map((id) => Number.parseInt(id.slice(3, 15), 16));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
