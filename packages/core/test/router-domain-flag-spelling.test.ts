import { createRouter } from "@solserver/core";
import { describe, expect, it } from "vitest";

// control-plane-flow-pack-v0.md spells the governance flag "SolOS-governance" (domainFlags[]
// "architecture/finance/legal/SolOS-governance/etc.") and lists "SolOS governance" among the step-0
// high-rigor domain triggers: a mode declaring that flag receives the governance triggers.
const routerFor = (flag: string) =>
  createRouter({
    defaultMode: "chat",
    modes: [
      { label: "chat", examples: ["tell me a joke", "what should I cook tonight"] },
      { label: "gov", rigor: "high", domainFlags: [flag] },
      { label: "money", rigor: "high", domainFlags: ["finance"] },
    ],
  });

describe("step-0 governance trigger reaches a mode flagged in the flow pack's spelling", () => {
  it.each(["governance", "SolOS-governance", "solos_governance", "SolOS governance", "Governance"])(
    "%j",
    (flag) => {
      const decision = routerFor(flag).route({ message: "what do our bylaws say about this?" });
      expect(decision.modeLabel).toBe("gov");
      expect(decision.step).toBe(0);
      expect(decision.confidence).toBe(1);
      expect(decision.checkpointNeeded).toBe(true);
      expect(decision.domainFlags).toContain(flag);
    },
  );

  it("other domains still go to the mode that declares them", () => {
    const decision = routerFor("SolOS-governance").route({ message: "should I refinance my mortgage?" });
    expect(decision.modeLabel).toBe("money");
    expect(decision.step).toBe(0);
  });
});
