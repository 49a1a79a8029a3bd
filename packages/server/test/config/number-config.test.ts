import { isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/index.js";

function configError(sources: Parameters<typeof loadConfig>[0]): unknown {
  try {
    loadConfig(sources);
  } catch (error) {
    return error;
  }
  return null;
}

// Numeric settings (SOL_PORT, limits, timeouts) from the environment or a sol.config.json.
describe("whole-number settings", () => {
  it("reads digits from the environment and JSON numbers from the config file", () => {
    expect(loadConfig({ env: { SOL_PORT: " 9000 " } }).SOL_PORT).toBe(9000);
    expect(loadConfig({ file: { SOL_PORT: 9001, SOL_WINDOW_MESSAGES: "4" } })).toMatchObject({
      SOL_PORT: 9001,
      SOL_WINDOW_MESSAGES: 4,
    });
    expect(loadConfig({ env: { SOL_PORT: "0" } }).SOL_PORT).toBe(0);
  });

  it("refuses values that are not whole numbers instead of coercing them", () => {
    const cases: { env?: Record<string, string>; file?: Record<string, unknown>; key: string }[] = [
      // Coercion read a blank port as 0 (a random port) and false as 0 (rate limit off).
      { env: { SOL_PORT: " " }, key: "SOL_PORT" },
      { file: { SOL_PORT: null }, key: "SOL_PORT" },
      { file: { SOL_PORT: true }, key: "SOL_PORT" },
      { file: { SOL_PORT: [9000] }, key: "SOL_PORT" },
      { file: { SOL_RATE_LIMIT_PER_MIN: false }, key: "SOL_RATE_LIMIT_PER_MIN" },
      { env: { SOL_WINDOW_MESSAGES: "1e1" }, key: "SOL_WINDOW_MESSAGES" },
      { env: { SOL_BODY_LIMIT: "0x100" }, key: "SOL_BODY_LIMIT" },
      { env: { SOL_PORT: "80.5" }, key: "SOL_PORT" },
    ];
    for (const c of cases) {
      const error = configError(c);
      expect(isSolError(error) && error.code, JSON.stringify(c)).toBe("invalid_input");
      expect((error as Error).message).toContain(`${c.key}: expected a whole number`);
    }
  });

  it("still checks the range", () => {
    expect((configError({ env: { SOL_PORT: "70000" } }) as Error).message).toMatch(/SOL_PORT: Too big/);
    expect((configError({ env: { SOL_LLM_TIMEOUT_MS: "0" } }) as Error).message).toMatch(
      /SOL_LLM_TIMEOUT_MS: Too small/,
    );
  });

  it("reads the heap growing percent (default 100; 0 is V8's own factor)", () => {
    expect(loadConfig({ env: {} }).SOL_HEAP_GROWING_PERCENT).toBe(100);
    expect(loadConfig({ env: { SOL_HEAP_GROWING_PERCENT: "0" } }).SOL_HEAP_GROWING_PERCENT).toBe(0);
    expect((configError({ env: { SOL_HEAP_GROWING_PERCENT: "-5" } }) as Error).message).toMatch(
      /SOL_HEAP_GROWING_PERCENT: Too small/,
    );
  });

  it("reads the turn lease (default 10 s) and refuses one too short to renew", () => {
    expect(loadConfig({ env: {} }).SOL_TURN_LEASE_MS).toBe(10_000);
    expect(loadConfig({ env: { SOL_TURN_LEASE_MS: "1500" } }).SOL_TURN_LEASE_MS).toBe(1500);
    expect((configError({ env: { SOL_TURN_LEASE_MS: "0" } }) as Error).message).toMatch(
      /SOL_TURN_LEASE_MS: Too small/,
    );
    expect((configError({ env: { SOL_TURN_LEASE_MS: "1.5s" } }) as Error).message).toContain(
      "SOL_TURN_LEASE_MS: expected a whole number",
    );
  });
});
