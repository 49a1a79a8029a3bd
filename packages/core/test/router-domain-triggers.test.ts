import { createDefaultRouter, createRouter } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { CONTEXTUAL_DOMAIN_TRIGGERS, DOMAIN_CUES, HIGH_RIGOR_DOMAINS } from "../src/router/domains.js";
import { canonicalPhrase } from "../src/router/text.js";

// One general high-rigor mode takes every domain, so any trigger that fires shows as step 0.
const router = createRouter({
  defaultMode: "chat",
  modes: [
    { label: "chat", examples: ["hello there", "what should I cook tonight", "plan my weekend"] },
    { label: "rigor", rigor: "high" },
  ],
});

describe("step-0 domain triggers: everyday double meanings do not fire", () => {
  it.each([
    "I love the architecture in Barcelona",
    "what are some good photo spots for architecture lovers?",
    "my contract with the gym ends in May",
    "remind me to cancel my phone contract",
    "my son won't sleep without his security blanket",
    "the security guard at the museum was so kind",
    "airport security took forever today",
    "I worry about job security",
    "I've invested so much in this friendship",
    "I want to invest more time in my hobbies",
    "I find it hard to show vulnerability to my partner",
    "he exploits my kindness",
    "can you review my art portfolio?",
    "his trademark smile gets me every time",
    "she wore patent leather boots",
    "my friend Sue is visiting this weekend",
    "I gave the book back to Sue",
    "my brother is a liability at parties",
    "a new lease on life",
    "we reached an agreement about the chores",
    "I feel secure in my relationship",
    "compliance training at work is so boring",
  ])("%j", (message) => {
    const explained = router.explain(message);
    expect(explained.override).toBeNull();
    expect(explained.decision.domainFlags).toEqual([]);
    expect(explained.decision.checkpointNeeded).toBe(false);
  });
});

describe("step-0 domain triggers: the same words with a cue of their domain do fire", () => {
  it.each([
    [
      "review the architecture of our payment service",
      "architecture",
      'trigger "architecture" with "review"',
    ],
    ["what are the trade-offs of this architecture?", "architecture", 'with "trade offs"'],
    ["check this contract before I sign it", "legal", 'trigger "contract" with "check"'],
    ["is the liability clause in my lease normal?", "legal", 'trigger "liability" with "clause"'],
    ["is our wifi security good enough?", "security", 'trigger "security" with "wifi"'],
    ["what are the security implications of this change", "security", 'with "implications"'],
    ["there is a vulnerability in our login page", "security", 'with "login"'],
    ["should I invest $500 a month?", "finance", 'trigger "invest" with "money"'],
    ["is a 4% dividend good?", "finance", 'with "percent"'],
    ["how should I rebalance my investment portfolio", "finance", 'trigger "investment" with "portfolio"'],
    ["can I sue my landlord over the mould?", "legal", 'trigger "can i sue"'],
    ["should I patent my invention?", "legal", 'trigger "patent my"'],
    ["can I trademark the name of my bakery?", "legal", 'trigger "can i trademark"'],
  ])("%j triggers %s (%s)", (message, domain, reason) => {
    const decision = router.route({ message });
    expect(decision).toMatchObject({ modeLabel: "rigor", step: 0, confidence: 1, checkpointNeeded: true });
    expect(decision.domainFlags).toEqual([domain]);
    expect(decision.reasons[0]).toContain(reason);
  });

  it("reports every supported domain, in the order of their first trigger", () => {
    const decision = router.route({ message: "the security review and the tax return are due" });
    expect(decision.domainFlags).toEqual(["security", "finance"]);
    expect(decision.reasons[0]).toBe('step 0: security trigger "security review"');
  });
});

describe("domain trigger lists", () => {
  const all = (lists: Readonly<Record<string, readonly string[]>>) => Object.values(lists).flat();

  it("keep the five documented domains, each with standalone triggers", () => {
    expect(Object.keys(HIGH_RIGOR_DOMAINS)).toEqual([
      "finance",
      "legal",
      "architecture",
      "security",
      "governance",
    ]);
    expect(Object.keys(CONTEXTUAL_DOMAIN_TRIGGERS)).toEqual(Object.keys(HIGH_RIGOR_DOMAINS));
    for (const triggers of Object.values(HIGH_RIGOR_DOMAINS)) expect(triggers.length).toBeGreaterThan(0);
  });

  it("are canonical, non-empty and never list a word as both a standalone and a contextual trigger", () => {
    const standalone = all(HIGH_RIGOR_DOMAINS);
    const contextual = all(CONTEXTUAL_DOMAIN_TRIGGERS);
    for (const term of [...standalone, ...contextual, ...all(DOMAIN_CUES)]) {
      expect(canonicalPhrase(term)).toBe(term);
    }
    expect(contextual.filter((term) => standalone.includes(term))).toEqual([]);
  });

  it("a contextual trigger is never its own domain's cue", () => {
    for (const [domain, triggers] of Object.entries(CONTEXTUAL_DOMAIN_TRIGGERS)) {
      const cues = DOMAIN_CUES[domain] ?? [];
      expect(triggers.filter((term) => cues.includes(term))).toEqual([]);
    }
  });
});

describe("the default pack on everyday uses of domain words", () => {
  const pack = createDefaultRouter();

  it.each([
    "I love the architecture in Barcelona",
    "Remind me to cancel my contract with the gym",
    "How do I wash my daughter's security blanket?",
  ])("%j goes to assist, not system", (message) => {
    expect(pack.route({ message })).toMatchObject({ modeLabel: "assist", checkpointNeeded: false });
  });

  it("keeps the system mode for the real thing", () => {
    expect(pack.route({ message: "Review this contract clause before I sign" })).toMatchObject({
      modeLabel: "system",
      step: 0,
      domainFlags: expect.arrayContaining(["legal"]),
    });
  });
});
