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

describe("permission-gate configuration", () => {
  it("has safe defaults: no webhook, a lease longer than the execution limit", () => {
    const config = loadConfig({ env: {} });
    expect(config.SOL_WEBHOOK_URL).toBeUndefined();
    expect(config.SOL_WEBHOOK_ALLOWLIST).toBeUndefined();
    expect(config.SOL_ACTION_LEASE_MS).toBeGreaterThan(config.SOL_ACTION_TIMEOUT_MS);
  });

  it("reads the webhook URL and normalises the allowlist to origins", () => {
    const config = loadConfig({
      env: {
        SOL_WEBHOOK_URL: "https://hooks.example.com/sol",
        SOL_WEBHOOK_ALLOWLIST: "https://a.example.com/x, http://127.0.0.1:9000",
      },
    });
    expect(config.SOL_WEBHOOK_URL).toBe("https://hooks.example.com/sol");
    expect(config.SOL_WEBHOOK_ALLOWLIST).toEqual(["https://a.example.com", "http://127.0.0.1:9000"]);
  });

  it("rejects a non-http webhook URL, a bad allowlist entry, and a lease not longer than the limit", () => {
    for (const env of [
      { SOL_WEBHOOK_URL: "ftp://example.com/x" },
      { SOL_WEBHOOK_ALLOWLIST: "example.com" },
      { SOL_WEBHOOK_ALLOWLIST: "file:///tmp" },
      { SOL_ACTION_TIMEOUT_MS: "5000", SOL_ACTION_LEASE_MS: "5000" },
    ]) {
      const error = configError(env);
      expect(isSolError(error) && error.code).toBe("invalid_input");
    }
  });
});
