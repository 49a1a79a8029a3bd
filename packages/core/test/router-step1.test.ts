import { createRouter, ModeDecision } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_ROUTER_CONFIDENCE_THRESHOLD } from "../src/router/config.js";
import { ROUTER_VERSION } from "../src/router/version.js";
import { SMALL_PACK } from "./router-fixtures.js";

const router = createRouter(SMALL_PACK);

describe("router step 1: deterministic classifier", () => {
  it.each([
    ["will it snow in Oslo tomorrow?", "weather"],
    ["play some music by the beatles", "music"],
    ["set a timer for 3 minutes", "timer"],
    ["tell me a funny joke", "chat"],
  ])("%j goes to %s at step 1 with the mode's settings", (message, label) => {
    const decision = router.route({ message });
    expect(ModeDecision.parse(decision)).toEqual(decision);
    expect(decision.modeLabel).toBe(label);
    expect(decision.step).toBe(1);
    expect(decision.confidence).toBeGreaterThanOrEqual(0.6);
    expect(decision.version).toBe(ROUTER_VERSION);
    expect(decision.reasons[0]).toContain(`lexical model picks "${label}"`);
  });

  it("carries the mode's clusters, flags and rigor; normal rigor needs no checkpoint", () => {
    const decision = router.route({ message: "will it rain on saturday?" });
    expect(decision).toMatchObject({
      modeLabel: "weather",
      clusterIds: ["weather-tools"],
      domainFlags: [],
      rigorConfig: { level: "normal", gates: [] },
      checkpointNeeded: false,
    });
  });

  it("counts keywords and phrases as evidence and names them", () => {
    const keyword = router.route({ message: "umbrella?" });
    expect(keyword.modeLabel).toBe("weather");
    expect(keyword.reasons).toContain('terms: "umbrella"');
    const phrase = router.explain("could you wake me up");
    expect(phrase.decision.modeLabel).toBe("timer");
    expect(phrase.terms.map((t) => t.text)).toContain("wake me up");
  });

  it("reports structural cues and ontology concepts", () => {
    const explained = router.explain("set an alarm for 6:30 tomorrow, it must ring twice");
    expect(explained.cues).toEqual(expect.arrayContaining(["number", "time", "date", "constraint"]));
    expect(explained.decision.reasons.some((r) => r.startsWith("cues: "))).toBe(true);
    expect(router.explain("I feel anxious").concepts).toContain("anxiety");
  });

  it("routes a mode defined only by keywords", () => {
    const r = createRouter({
      defaultMode: "general",
      modes: [
        { label: "general", keywords: ["hello", "thanks"] },
        { label: "billing", keywords: ["invoice", "refund", "receipt"] },
      ],
    });
    expect(r.route({ message: "where is my refund" }).modeLabel).toBe("billing");
    expect(r.route({ message: "hello" }).modeLabel).toBe("general");
  });

  it("gives the default mode (or the thread's last mode) with confidence 0 when nothing is known", () => {
    expect(router.route({ message: "qwzx vvkj" })).toMatchObject({
      modeLabel: "chat",
      confidence: 0,
      step: 2,
    });
    expect(router.route({ message: "" })).toMatchObject({ modeLabel: "chat", step: 2 });
    expect(router.route({ message: "qwzx", thread: { lastModeLabel: "music" } })).toMatchObject({
      modeLabel: "music",
      step: 2,
    });
  });

  it("a single-mode pack always routes there with full confidence", () => {
    const r = createRouter({ defaultMode: "only", modes: [{ label: "only", examples: ["anything"] }] });
    expect(r.route({ message: "anything at all" })).toMatchObject({
      modeLabel: "only",
      confidence: 1,
      step: 1,
    });
  });
});

describe("router step 1: thread metadata", () => {
  const ambiguous = "check the weather and play a song";

  it("the last mode tips a close call and says so", () => {
    const plain = router.explain(ambiguous);
    const [first, second] = plain.candidates;
    expect(first && second && first.probability / second.probability).toBeLessThan(2);
    const sticky = router.route({ message: ambiguous, thread: { lastModeLabel: second?.modeLabel } });
    expect(sticky.modeLabel).toBe(second?.modeLabel);
    expect(sticky.reasons).toContain(`thread: stays in last mode "${second?.modeLabel}"`);
  });

  it("a known domain tag raises modes that carry that domain flag", () => {
    const plain = router.explain("is this wording ok");
    const tagged = router.explain({ message: "is this wording ok", thread: { domainTags: ["LEGAL"] } });
    const p = (e: typeof plain) => e.candidates.find((c) => c.modeLabel === "review")?.probability ?? 0;
    expect(p(tagged)).toBeGreaterThan(p(plain));
  });

  it("an unknown last mode is ignored", () => {
    expect(router.route({ message: ambiguous, thread: { lastModeLabel: "gone", messageCount: 3 } })).toEqual(
      router.route({ message: ambiguous }),
    );
  });
});

describe("router step 2: threshold semantics", () => {
  it("defaults the threshold to 0.7", () => {
    const { confidenceThreshold: _, ...rest } = SMALL_PACK;
    expect(DEFAULT_ROUTER_CONFIDENCE_THRESHOLD).toBe(0.7);
    expect(createRouter(rest).confidenceThreshold).toBe(0.7);
  });

  it("below the threshold the step-1 best guess comes back as step 2 with a reason", () => {
    const decision = router.route({ message: "check the weather and play a song" });
    expect(decision.confidence).toBeLessThan(0.6);
    expect(decision.step).toBe(2);
    expect(decision.modeLabel).toBe(
      router.explain("check the weather and play a song").candidates[0]?.modeLabel,
    );
    expect(decision.reasons.at(-1)).toBe("confidence below threshold 0.6: selector needed");
  });

  it("threshold 0 never calls the selector for known words; threshold 1 always does below certainty", () => {
    const never = createRouter({ ...SMALL_PACK, confidenceThreshold: 0 });
    const always = createRouter({ ...SMALL_PACK, confidenceThreshold: 1 });
    for (const message of ["check the weather and play a song", "set a timer for 3 minutes", "hi"]) {
      expect(never.route({ message }).step).toBe(1);
      const decision = always.route({ message });
      expect(decision.step).toBe(decision.confidence < 1 ? 2 : 1);
    }
  });

  it("the same router state gives the same decision as a fresh step-1 decision apart from the step", () => {
    const high = createRouter({ ...SMALL_PACK, confidenceThreshold: 0.99 });
    const message = "is it windy at the beach";
    const a = router.route({ message });
    const b = high.route({ message });
    expect({ ...a, step: 0, reasons: [] }).toEqual({ ...b, step: 0, reasons: [] });
  });
});

describe("router determinism and shape", () => {
  it("two routers from one config decide identically, and routing twice changes nothing", () => {
    const again = createRouter(SMALL_PACK);
    for (const message of ["will it rain", "play jazz", "timer 5 min", "check the weather and play a song"]) {
      expect(again.route({ message })).toEqual(router.route({ message }));
      expect(router.route({ message })).toEqual(router.route({ message }));
    }
    expect(again.calibration).toEqual(router.calibration);
  });

  it("exposes a frozen config and the parsed modes", () => {
    expect(Object.isFrozen(router.config)).toBe(true);
    expect(Object.isFrozen(router.config.modes[0])).toBe(true);
    expect(router.modes.map((m) => m.label)).toEqual(["chat", "weather", "music", "timer", "review"]);
    expect(router.modes[4]?.rigor).toEqual({ level: "high", gates: ["facts_block"] });
    expect(() => {
      (router.config as { defaultMode: string }).defaultMode = "music";
    }).toThrow();
  });

  it("calibration comes from held-out examples and is monotone", () => {
    const calibration = router.calibration;
    expect(calibration?.points).toBe(51);
    const accuracies = calibration?.steps.map((s) => s.accuracy) ?? [];
    expect(accuracies.length).toBeGreaterThan(1);
    expect([...accuracies].sort((a, b) => a - b)).toEqual(accuracies);
  });

  it("rejects a route input without a string message", () => {
    expect(() => router.route({ message: 42 } as unknown as { message: string })).toThrow(/message/);
    expect(() => router.route({ message: "hi", thread: { lastModeLabel: 7 } as never })).toThrow(/thread/);
  });

  it("ignores thread keys it does not read", () => {
    const plain = router.route({ message: "play me a song", thread: { lastModeLabel: "music" } });
    const extra = { lastModeLabel: "music", turnCount: 4, title: "evening" } as never;
    expect(router.route({ message: "play me a song", thread: extra })).toEqual(plain);
  });
});

describe("router step 1 without examples to calibrate on", () => {
  const r = createRouter({
    defaultMode: "chat",
    modes: [
      { label: "billing", keywords: ["invoice", "refund"] },
      { label: "chat", keywords: ["hello", "hi"] },
      { label: "tech", phrases: ["error message"], keywords: ["crash"] },
    ],
  });

  it("trusts the model only when the best mode's own term is in the message", () => {
    expect(r.calibration).toBeNull();
    expect(r.route({ message: "I need a refund for this invoice" })).toMatchObject({
      modeLabel: "billing",
      step: 1,
    });
    expect(r.route({ message: "the app shows an error message" })).toMatchObject({
      modeLabel: "tech",
      step: 1,
    });
    const vague = r.route({ message: "what is the weather like" });
    expect(vague.confidence).toBeLessThanOrEqual(0.5);
    expect(vague.step).toBe(2);
  });

  it("guesses the default (or the thread's last) mode when no term, nor a word like one, is in the message", () => {
    const pack = createRouter({
      defaultMode: "assist",
      modes: [
        { label: "assist", keywords: ["help"] },
        { label: "legal", keywords: ["contract", "lawsuit"], domainFlags: ["legal"], rigor: "high" },
        { label: "coding", keywords: ["code", "bug", "typescript"] },
      ],
    });
    // Shared endings ("making" ~ "debugging") or a question cue used to pick coding or legal here.
    for (const message of [
      "what is the capital of France",
      "my car is making a weird noise",
      "schedule a meeting tomorrow at 3pm",
    ]) {
      const decision = pack.route({ message });
      expect(decision, message).toMatchObject({ modeLabel: "assist", step: 2, checkpointNeeded: false });
      expect(decision.domainFlags).toEqual([]);
      expect(decision.confidence).toBeLessThanOrEqual(0.5);
      expect(pack.route({ message, thread: { lastModeLabel: "coding" } }).modeLabel).toBe("coding");
    }
    // A word that starts like a mode's term still counts as resemblance (step 2, that mode's guess).
    expect(pack.route({ message: "the lawsuits are piling up" })).toMatchObject({
      modeLabel: "legal",
      step: 2,
    });
    expect(pack.route({ message: "there are bugs everywhere" })).toMatchObject({
      modeLabel: "coding",
      step: 2,
    });
  });

  it("a few examples and no terms: the best guess is the mode whose examples the message resembles", () => {
    const pack = createRouter({
      defaultMode: "coding",
      modes: [
        { label: "coding", examples: ["fix this bug in my python code", "how do I write a function"] },
        { label: "cooking", examples: ["recipe for pasta", "how long to boil eggs"] },
      ],
    });
    expect(pack.calibration).toBeNull();
    for (const message of ["recipe for pasta", "give me a recipe for pasta", "how long should I boil eggs"]) {
      const decision = pack.route({ message });
      expect(decision.modeLabel, message).toBe("cooking");
      // Uncalibrated and without a term hit: still the selector's call.
      expect(decision.step, message).toBe(2);
      expect(decision.confidence, message).toBeLessThanOrEqual(0.5);
    }
    expect(pack.route({ message: "my python function has a bug" }).modeLabel).toBe("coding");
  });

  it("a single keyword-only mode has nothing to choose between, even for unknown words", () => {
    const single = createRouter({ defaultMode: "only", modes: [{ label: "only" }] });
    for (const message of ["anything", "qwzx vvkj", "hello"]) {
      expect(single.route({ message }), message).toMatchObject({ modeLabel: "only", confidence: 1, step: 1 });
    }
  });
});

describe("router step 1: configured terms with few or unlike examples", () => {
  // Examples that share few words with each other: held-out accuracy is low, so the calibration map
  // is low everywhere, yet a message naming one mode's keyword is a deterministic route.
  const sparse = createRouter({
    defaultMode: "assist",
    modes: [
      {
        label: "assist",
        keywords: ["help"],
        examples: ["Can you draft a reply to my landlord?", "Summarize this article", "Write a cover letter"],
      },
      {
        label: "companion",
        keywords: ["lonely"],
        examples: ["I had a rough day and want to talk", "Nobody understands me lately"],
      },
      { label: "finance", keywords: ["budget", "invest"] },
    ],
  });
  const calibrated = createRouter({
    defaultMode: "coding",
    modes: [
      {
        label: "coding",
        keywords: ["bug", "compile"],
        examples: [
          "Why does my function return undefined",
          "Refactor this class please",
          "What does this stack trace mean",
          "How do I write a unit test",
          "My loop never ends",
          "Explain async await",
          "Set up a linter for my project",
          "Merge conflict in git",
        ],
      },
      {
        label: "cooking",
        keywords: ["recipe", "bake"],
        examples: [
          "What can I make with eggs and rice",
          "How long to roast a chicken",
          "Is raw flour safe to eat",
          "Substitute for buttermilk",
          "Dinner ideas for a picky kid",
          "How do I sharpen a knife",
          "Pasta sauce from scratch",
          "Why did my bread not rise",
        ],
      },
      {
        label: "travel",
        keywords: ["flight", "hotel"],
        examples: [
          "Plan a weekend in Lisbon",
          "What to pack for Iceland",
          "Do I need a visa for Japan",
          "Cheapest way around Paris",
          "Travelling alone in Peru",
          "Best time to visit Bali",
          "Road trip route through Utah",
          "Tips for jet lag",
        ],
      },
    ],
  });

  it("fewer than 20 held-out predictions: no calibration map, and a keyword hit routes at step 1", () => {
    expect(sparse.calibration).toBeNull();
    expect(sparse.route({ message: "help me write an email" })).toMatchObject({
      modeLabel: "assist",
      step: 1,
    });
    expect(sparse.route({ message: "I feel so lonely" })).toMatchObject({ modeLabel: "companion", step: 1 });
    expect(sparse.route({ message: "how should I budget this month" })).toMatchObject({
      modeLabel: "finance",
      step: 1,
    });
  });

  it("a calibrated pack still routes a message naming one mode's terms at step 1", () => {
    expect(calibrated.calibration?.points).toBeGreaterThanOrEqual(20);
    for (const [message, mode] of [
      ["there is a bug here", "coding"],
      ["find me a recipe", "cooking"],
      ["book a flight to Rome", "travel"],
    ] as const) {
      const decision = calibrated.route({ message });
      expect(decision).toMatchObject({ modeLabel: mode, step: 1 });
    }
  });

  it("terms of two modes leave the calibrated confidence alone", () => {
    const both = calibrated.explain({ message: "bake a recipe on the flight" });
    const steps = calibrated.calibration?.steps ?? [];
    const ceiling = Math.max(...steps.map((s) => s.accuracy));
    expect(both.decision.confidence).toBeLessThanOrEqual(ceiling + 1e-4);
  });
});
