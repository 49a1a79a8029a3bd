import { isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/index.js";

function configError(env: Record<string, string>): unknown {
  try {
    loadConfig({ env });
  } catch (error) {
    return error;
  }
  return null;
}

// api.md §1: SOL_API_KEYS is `tenant:key,tenant:key`; unset means auth off with a warning at start.
describe("SOL_API_KEYS parsing", () => {
  it("maps each key to its tenant, trimming spaces", () => {
    const config = loadConfig({ env: { SOL_API_KEYS: "acme:k1, beta : k2,acme:k3" } });
    expect([...(config.SOL_API_KEYS ?? [])]).toEqual([
      ["k1", "acme"],
      ["k2", "beta"],
      ["k3", "acme"],
    ]);
  });

  it("refuses a value without any entry instead of turning auth off without the warning", () => {
    for (const SOL_API_KEYS of [",", " , ,"]) {
      const error = configError({ SOL_API_KEYS });
      expect(isSolError(error) && error.code).toBe("invalid_input");
      expect((error as Error).message).toContain("SOL_API_KEYS has no tenant:key entry");
    }
  });

  it("refuses one key given to two tenants instead of keeping the last", () => {
    const error = configError({ SOL_API_KEYS: "acme:shared,beta:shared" });
    expect(isSolError(error) && error.code).toBe("invalid_input");
    expect((error as Error).message).toContain('tenant "acme" and tenant "beta"');
    // The same pair twice is only repetition.
    expect(loadConfig({ env: { SOL_API_KEYS: "acme:k1,acme:k1" } }).SOL_API_KEYS?.get("k1")).toBe("acme");
  });
});

describe("SOL_API_KEYS errors never quote a key", () => {
  it("names a malformed entry by position", () => {
    const error = configError({ SOL_API_KEYS: "acme:k1,beta=sk-live-secret-value" });
    expect(isSolError(error) && error.code).toBe("invalid_input");
    expect((error as Error).message).toContain("SOL_API_KEYS entry 2 of 2 must look like tenant:key");
    expect(JSON.stringify(error)).not.toContain("sk-live-secret-value");
    expect((error as Error).message).not.toContain("sk-live-secret-value");
  });
});
