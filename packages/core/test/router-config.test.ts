import { createRouter, isSolError, parseModePack, type RouterConfigInput } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { parseRouterConfig } from "../src/router/config.js";
import { DEFAULT_MODE_PACK } from "../src/router/default-pack.js";

const base: RouterConfigInput = { defaultMode: "a", modes: [{ label: "a" }, { label: "b" }] };

function issuesOf(config: unknown) {
  const result = parseRouterConfig(config);
  if (result.ok) throw new Error("expected issues");
  return result.issues;
}

describe("router config validation", () => {
  it("accepts the documented shape and normalizes rigor", () => {
    const result = parseRouterConfig({
      defaultMode: "a",
      confidenceThreshold: 0.8,
      modes: [
        {
          label: "a",
          keywords: ["k"],
          phrases: ["a phrase"],
          examples: ["an example"],
          domainFlags: ["finance"],
          clusterIds: ["c1"],
          rigor: "high",
          callWords: ["hey a"],
        },
        { label: "b", rigor: { level: "low" } },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.modes[0]?.rigor).toEqual({ level: "high", gates: [] });
    expect(result.value.modes[1]?.rigor).toEqual({ level: "low", gates: [] });
  });

  it.each([
    ["no modes", { defaultMode: "a", modes: [] }, ["modes"]],
    ["an unknown default mode", { ...base, defaultMode: "z" }, ["defaultMode"]],
    [
      "a duplicate label",
      { defaultMode: "a", modes: [{ label: "a" }, { label: "a" }] },
      ["modes", 1, "label"],
    ],
    [
      "a label without letters",
      { defaultMode: "a", modes: [{ label: "a" }, { label: "--" }] },
      ["modes", 1, "label"],
    ],
    ["an unknown mode field", { defaultMode: "a", modes: [{ label: "a", persona: "x" }] }, ["modes", 0]],
    ["an unknown top-level field", { ...base, extra: true }, []],
    ["a threshold above 1", { ...base, confidenceThreshold: 1.5 }, ["confidenceThreshold"]],
    [
      "a bad rigor level",
      { defaultMode: "a", modes: [{ label: "a", rigor: "extreme" }] },
      ["modes", 0, "rigor"],
    ],
    [
      "an empty keyword",
      { defaultMode: "a", modes: [{ label: "a", keywords: ["  !! "] }] },
      ["modes", 0, "keywords", 0],
    ],
    ["a padded label", { defaultMode: " a", modes: [{ label: " a" }] }, ["modes", 0, "label"]],
  ])("reports %s with a path", (_, config, path) => {
    const issues = issuesOf(config);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.some((issue) => JSON.stringify(issue.path) === JSON.stringify(path))).toBe(true);
  });

  it("createRouter throws SolError invalid_input with the issues in details", () => {
    let caught: unknown;
    try {
      createRouter({ ...base, defaultMode: "missing" });
    } catch (error) {
      caught = error;
    }
    expect(isSolError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: "invalid_input" });
    const details = (caught as { details: { issues: Array<{ path: unknown[] }> } }).details;
    expect(details.issues[0]?.path).toEqual(["defaultMode"]);
  });
});

describe("parseModePack", () => {
  it("loads a pack from JSON text", () => {
    const result = parseModePack(JSON.stringify(DEFAULT_MODE_PACK));
    expect(result).toEqual({ ok: true, value: DEFAULT_MODE_PACK });
  });

  it("explains bad JSON and bad packs", () => {
    const bad = parseModePack("{ modes: [");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0]).toMatchObject({ code: "invalid_json", path: [] });
    const invalid = parseModePack('{"modes":[{"label":"a"}]}');
    expect(invalid.ok).toBe(false);
    if (!invalid.ok) expect(invalid.issues.map((i) => i.path?.[0])).toContain("defaultMode");
  });
});
