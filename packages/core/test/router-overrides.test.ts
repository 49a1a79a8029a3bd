import { createRouter, ModeDecision, type RouterConfigInput } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { SMALL_PACK } from "./router-fixtures.js";

const router = createRouter(SMALL_PACK);

function route(message: string) {
  const decision = router.route({ message });
  expect(ModeDecision.safeParse(decision).success).toBe(true);
  return decision;
}

describe("router step 0: explicit mode requests", () => {
  it.each([
    ["/mode music", "music"],
    ["/MODE Weather", "weather"],
    ["/timer", "timer"],
    ["switch to music mode", "music"],
    ["Can you change to the weather mode please?", "weather"],
    ["let's go into timer mode", "timer"],
    ["use chat mode", "chat"],
    ["music mode please", "music"],
    ["mode: weather", "weather"],
    ["could you turn music mode on", "music"],
    ["put it on timer mode", "timer"],
  ])("%j requests %s", (message, label) => {
    const decision = route(message);
    expect(decision).toMatchObject({ modeLabel: label, step: 0, confidence: 1 });
    expect(decision.reasons.join(" ")).toMatch(/mode (request|command)/);
  });

  it("ignores requests for modes that do not exist and mentions of a mode without a request", () => {
    expect(route("/mode cooking").step).not.toBe(0);
    expect(route("I love music").step).not.toBe(0);
  });

  it("accepts a label that itself ends in 'mode' without doubling the word", () => {
    const r = createRouter({
      defaultMode: "chat",
      modes: [{ label: "chat", examples: ["hi"] }, { label: "whisper_mode" }],
    });
    expect(r.route({ message: "please switch to whisper mode" })).toMatchObject({
      modeLabel: "whisper_mode",
      step: 0,
    });
  });
});

describe("router step 0: call words", () => {
  it("routes to the mode whose call word appears, on word boundaries", () => {
    const decision = route("I need a careful review of this paragraph");
    expect(decision).toMatchObject({ modeLabel: "review", step: 0, confidence: 1, checkpointNeeded: true });
    expect(decision.reasons[0]).toContain('call word "careful review"');
    expect(route("carefulreviewer here").step).not.toBe(0);
  });

  it("prefers the earliest call word when several modes are called", () => {
    const r = createRouter({
      defaultMode: "a",
      modes: [
        { label: "a", callWords: ["alpha"] },
        { label: "b", callWords: ["bravo"] },
      ],
    });
    expect(r.route({ message: "bravo then alpha" }).modeLabel).toBe("b");
    expect(r.route({ message: "alpha then bravo" }).modeLabel).toBe("a");
  });
});

describe("router step 0: high-rigor domain triggers", () => {
  it("routes a domain trigger to the high-rigor mode that declares the domain, with flags set", () => {
    const decision = route("can you look at this contract for me");
    expect(decision).toMatchObject({
      modeLabel: "review",
      step: 0,
      confidence: 1,
      checkpointNeeded: true,
      rigorConfig: { level: "high", gates: ["facts_block"] },
    });
    expect(decision.domainFlags).toContain("legal");
    expect(decision.reasons[0]).toBe('step 0: legal trigger "contract" with "look at"');
  });

  it("routes undeclared domains to a general high-rigor mode, and never without one", () => {
    const general: RouterConfigInput = {
      defaultMode: "chat",
      modes: [
        { label: "chat", examples: ["hello there"] },
        { label: "strict", rigor: "high" },
      ],
    };
    const decision = createRouter(general).route({ message: "should I invest in index funds?" });
    expect(decision).toMatchObject({ modeLabel: "strict", step: 0, domainFlags: ["finance"] });
    // SMALL_PACK's only high-rigor mode declares "legal" alone: finance words do not override.
    expect(route("what are the tax rules for this").step).not.toBe(0);
    const none = createRouter({ defaultMode: "chat", modes: [{ label: "chat" }, { label: "other" }] });
    expect(none.route({ message: "review my mortgage and tax return" }).step).not.toBe(0);
  });

  it("routes a domain to the mode that declares it even when that mode is not high-rigor", () => {
    const pack = createRouter({
      defaultMode: "chat",
      modes: [
        { label: "chat", keywords: ["hello", "weather"] },
        { label: "finance", domainFlags: ["finance"], keywords: ["budget"] },
        { label: "system", rigor: "high" },
      ],
    });
    const decision = pack.route({ message: "I need help with my tax return" });
    expect(decision).toMatchObject({ modeLabel: "finance", step: 0, confidence: 1, checkpointNeeded: true });
    expect(decision.domainFlags).toEqual(["finance"]);
    // A domain no mode declares still goes to the general high-rigor mode.
    expect(pack.route({ message: "Should I sign this NDA?" })).toMatchObject({
      modeLabel: "system",
      step: 0,
      domainFlags: ["legal"],
    });
    // A high-rigor mode declaring the domain is preferred over a normal one.
    const both = createRouter({
      defaultMode: "chat",
      modes: [
        { label: "chat" },
        { label: "money", domainFlags: ["finance"] },
        { label: "audit", rigor: "high", domainFlags: ["finance"] },
      ],
    });
    expect(both.route({ message: "review my tax return" })).toMatchObject({ modeLabel: "audit", step: 0 });
  });

  it.each([
    ["what are the security implications of this design", "security"],
    ["write an ADR for the new queue", "architecture"],
    ["is this legal", "legal"],
    ["how do I file my taxes", "finance"],
    ["what does the governance doc say", "governance"],
  ])("%j triggers %s", (message, domain) => {
    const r = createRouter({
      defaultMode: "chat",
      modes: [{ label: "chat" }, { label: "rigor", rigor: "high" }],
    });
    const decision = r.route({ message });
    expect(decision).toMatchObject({ modeLabel: "rigor", step: 0 });
    expect(decision.domainFlags).toEqual([domain]);
  });
});

describe("router step 0: system ops", () => {
  const pack: RouterConfigInput = {
    defaultMode: "assist",
    modes: [
      { label: "assist", examples: ["help me plan dinner", "what is the capital of peru"] },
      { label: "system", rigor: { level: "high", gates: ["facts_block"] } },
    ],
  };
  const r = createRouter(pack);

  it.each([
    "Please clear my conversation history",
    "show me your settings",
    "what mode are you in?",
    "export all my data",
    "what have we decided so far?",
    "/status",
    "what do you remember about me?",
    "Tell me everything you have saved about me",
  ])("%j is a system-ops request", (message) => {
    const decision = r.route({ message });
    expect(decision).toMatchObject({ modeLabel: "system", step: 0, confidence: 1, checkpointNeeded: true });
    expect(decision.reasons[0]).toMatch(/^step 0: system ops/);
  });

  it.each([
    "how do I clear my browser history?",
    "show me the rules of chess",
    "my car needs a diagnostic check",
    "we drove through a police checkpoint",
    "change the rules of the game",
    "what do you know about black holes?",
    "do you remember the name of that film with the shark?",
  ])("%j is an ordinary request", (message) => {
    expect(r.route({ message }).step).not.toBe(0);
  });

  it("needs a mode labelled system", () => {
    expect(route("clear my history").reasons.join(" ")).not.toContain("system ops");
  });
});

describe("router step 0: precedence", () => {
  it("an explicit request beats call words, system ops and domain triggers but keeps domain flags", () => {
    const decision = route("switch to music mode, then a careful review of the contract");
    expect(decision).toMatchObject({ modeLabel: "music", step: 0, checkpointNeeded: true });
    expect(decision.domainFlags).toEqual(["legal"]);
  });

  it("a call word beats a domain trigger", () => {
    const r = createRouter({
      defaultMode: "chat",
      modes: [
        { label: "chat", callWords: ["hey buddy"] },
        { label: "rigor", rigor: "high" },
      ],
    });
    expect(r.route({ message: "hey buddy, taxes are boring" })).toMatchObject({ modeLabel: "chat", step: 0 });
  });
});

describe("router step 0: labels that differ only in case or separators", () => {
  it("the first such mode answers a mode request", () => {
    const r = createRouter({ defaultMode: "Music", modes: [{ label: "Music" }, { label: "music" }] });
    expect(r.route({ message: "switch to music mode" }).modeLabel).toBe("Music");
  });
});
