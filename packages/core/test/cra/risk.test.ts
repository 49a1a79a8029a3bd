import { detectRiskTier } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isRiskAtLeast, RISK_TIER_PATTERNS, riskTierRank } from "../../src/cra/risk.js";
import { matchesWildcard } from "../../src/cra/wildcard.js";

describe("detectRiskTier", () => {
  it("classifies the spec's examples", () => {
    const table: [string, Record<string, unknown> | undefined, string][] = [
      ["read_file", undefined, "low"],
      ["search", { q: "x" }, "low"],
      ["list_users", undefined, "low"],
      ["write_file", { path: "a.txt" }, "medium"],
      ["create_resource", undefined, "medium"],
      ["update_record", undefined, "medium"],
      ["delete_user", { id: 1 }, "high"],
      ["remove_item", undefined, "high"],
      // The tier table names "Drop database" as critical; other drops stay high.
      ["drop_database", undefined, "critical"],
      ["drop-db", undefined, "critical"],
      ["drop_table", undefined, "high"],
      ["drop_dbx_cache", undefined, "high"],
      ["destroy_vm", undefined, "high"],
      ["deploy", undefined, "critical"],
      ["migrate_schema", undefined, "critical"],
      ["truncate_table", undefined, "critical"],
      ["restart_service", { env: "production" }, "high"],
      ["restart_service", { env: "staging" }, "low"],
      ["summarize", undefined, "low"],
    ];
    for (const [type, params, tier] of table) {
      expect(detectRiskTier(params ? { type, params } : { type }), type).toBe(tier);
    }
  });

  it("applies the patterns in the spec's order (first match wins)", () => {
    expect(RISK_TIER_PATTERNS.map(([, tier]) => tier)).toEqual([
      "critical",
      "low",
      "medium",
      "high",
      "critical",
      "high",
    ]);
    // "write" is checked before "production": the spec's order decides
    expect(detectRiskTier({ type: "write_config", params: { env: "production" } })).toBe("medium");
    expect(detectRiskTier({ type: "DELETE_USER" })).toBe("high");
    expect(detectRiskTier({ type: "deployApp" })).toBe("critical");
  });

  it("prefers the atlas action definition, exact names before patterns", () => {
    const defs = {
      read_secrets: { risk_tier: "critical" as const },
      "delete_*": { risk_tier: "critical" as const },
      "delete_draft*": { risk_tier: "medium" as const },
      summarize: {},
    };
    expect(detectRiskTier({ type: "read_secrets" }, defs)).toBe("critical");
    expect(detectRiskTier({ type: "delete_user" }, defs)).toBe("critical");
    expect(detectRiskTier({ type: "delete_draft_3" }, defs)).toBe("medium");
    expect(detectRiskTier({ type: "summarize" }, defs)).toBe("low");
    // The spec's detection code spells it riskTier.
    expect(detectRiskTier({ type: "read_file" }, { read_file: { riskTier: "critical" } })).toBe("critical");
  });

  it("takes a bare action type as a string", () => {
    expect(detectRiskTier("delete_file")).toBe("high");
    expect(detectRiskTier("read_file", { read_file: { risk_tier: "medium" } })).toBe("medium");
  });

  it("always answers one of the four tiers", () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()), (type, params) => {
        expect(["low", "medium", "high", "critical"]).toContain(detectRiskTier({ type, params }));
      }),
    );
  });

  it("orders tiers", () => {
    expect(riskTierRank("low")).toBeLessThan(riskTierRank("critical"));
    expect(isRiskAtLeast("critical", "high")).toBe(true);
    expect(isRiskAtLeast("medium", "high")).toBe(false);
  });
});

describe("matchesWildcard", () => {
  it("matches * against any run of characters, ignoring case", () => {
    expect(matchesWildcard("delete_*", "delete_user")).toBe(true);
    expect(matchesWildcard("delete_*", "Delete_User")).toBe(true);
    expect(matchesWildcard("delete_*", "undelete_user")).toBe(false);
    expect(matchesWildcard("*_file", "write_file")).toBe(true);
    expect(matchesWildcard("a*b*c", "axxbyyc")).toBe(true);
    expect(matchesWildcard("a*b*c", "acb")).toBe(false);
    expect(matchesWildcard("ab*ba", "aba")).toBe(false);
    expect(matchesWildcard("*", "")).toBe(true);
    expect(matchesWildcard("write_file", "write_file")).toBe(true);
    expect(matchesWildcard("write_file", "write_files")).toBe(false);
  });

  it("agrees with an anchored regex translation", () => {
    const chars = fc.constantFrom("a", "b", "_");
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", "_", "*"), maxLength: 8 }),
        fc.string({ unit: chars, maxLength: 10 }),
        (pattern, value) => {
          const re = new RegExp(`^${pattern.split("*").join(".*")}$`);
          expect(matchesWildcard(pattern, value)).toBe(re.test(value));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
