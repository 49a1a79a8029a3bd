import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/index.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

// api.md §1: NODE_ENV=production disables every dev-only input path (agency contract §6.1: the
// convertEligible injection of POST /v1/thoughts). A process running with NODE_ENV=production must
// not get those paths back because its configuration was built from explicit sources only.
describe("config.production", () => {
  it("is true when the process runs with NODE_ENV=production, whatever sources are given", () => {
    vi.stubEnv("NODE_ENV", "production");
    expect(loadConfig().production).toBe(true);
    expect(loadConfig({ env: { SOL_DB_URL: "sqlite::memory:" } }).production).toBe(true);
    expect(loadConfig({ file: { SOL_PORT: 9000 } }).production).toBe(true);
  });

  it("follows NODE_ENV from the sources when the process is not in production", () => {
    vi.stubEnv("NODE_ENV", "test");
    expect(loadConfig({ env: { NODE_ENV: "production" } }).production).toBe(true);
    expect(loadConfig({ overrides: { NODE_ENV: "production" } }).production).toBe(true);
    expect(loadConfig({ env: {} }).production).toBe(false);
    expect(loadConfig({ env: { NODE_ENV: "development" } }).production).toBe(false);
  });
});
