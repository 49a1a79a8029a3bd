import { Atlas, createAtlasPolicyChecker } from "@solserver/core";
import { describe, expect, it } from "vitest";

const atlas = Atlas.parse({
  policies: [
    {
      policy_id: "hosts",
      actions: ["webhook"],
      decision: "denied",
      reason: "not that host",
      when: { host: { not_in: ["hooks.example.com"] } },
    },
    {
      policy_id: "big",
      actions: ["pay*"],
      decision: "requires_approval",
      when: { amount: { in: [500, 1000] } },
    },
    {
      policy_id: "drafts",
      actions: ["send_*"],
      decision: "denied",
      when: { to: { matches: "*@rival.com" } },
    },
  ],
});
const check = createAtlasPolicyChecker(atlas);
const decide = (type: string, params?: Record<string, unknown>) =>
  check({ type, ...(params ? { params } : {}) }, { riskTier: "low", sessionId: "s" });

describe("atlas policy param conditions", () => {
  it("not_in denies other hosts and a missing host, and lets the listed one through (any case)", async () => {
    expect((await decide("webhook", { host: "evil.test" })).decision).toBe("denied");
    expect((await decide("webhook")).decision).toBe("denied");
    expect((await decide("webhook", { host: "HOOKS.example.com" })).decision).toBe("allowed");
  });
  it("in and matches apply only when the param holds", async () => {
    expect((await decide("pay_invoice", { amount: 500 })).decision).toBe("requires_approval");
    expect((await decide("pay_invoice", { amount: 20 })).decision).toBe("allowed");
    expect((await decide("send_mail", { to: "boss@rival.com" })).decision).toBe("denied");
    expect((await decide("send_mail", { to: "me@home.org" })).decision).toBe("allowed");
    expect((await decide("send_mail", { to: 42 })).decision).toBe("allowed");
  });
  it("refuses a condition with nothing to test", () => {
    const bad = Atlas.safeParse({
      policies: [{ policy_id: "x", actions: ["a"], decision: "denied", when: { host: {} } }],
    });
    expect(bad.success).toBe(false);
  });
});
