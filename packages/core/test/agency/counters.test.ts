import {
  AGENCY_COUNTER_NAMES,
  AgencyCounters,
  countLlmOutput,
  countRecording,
  createAgencyCounters,
  createRecordingState,
  formatAgencyCountersLine,
  incrementAgencyCounter,
  isSolError,
  recordThought,
  resetAgencyCounters,
  sanitizeLLMOutput,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const T0 = 1_700_000_000_000;

describe("agency counters", () => {
  it("start at zero with the session start time", () => {
    const c = createAgencyCounters(T0);
    expect(AgencyCounters.parse(c)).toEqual(c);
    for (const name of AGENCY_COUNTER_NAMES) expect(c[name]).toBe(0);
    expect(c.startedAtMs).toBe(T0);
  });

  it("are monotonically increasing within a session", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...AGENCY_COUNTER_NAMES), fc.nat(3)), { maxLength: 50 }),
        (steps) => {
          let c = createAgencyCounters(T0);
          for (const [name, by] of steps) {
            const next = incrementAgencyCounter(c, name, by);
            for (const k of AGENCY_COUNTER_NAMES) expect(next[k]).toBeGreaterThanOrEqual(c[k]);
            expect(next[name]).toBe(c[name] + by);
            c = next;
          }
        },
      ),
    );
  });

  it("refuse a negative or fractional step", () => {
    for (const by of [-1, 0.5]) {
      let error: unknown;
      try {
        incrementAgencyCounter(createAgencyCounters(T0), "llmCalls", by);
      } catch (e) {
        error = e;
      }
      expect(isSolError(error) && error.code).toBe("invalid_input");
    }
  });

  it("resetAgencyCounters is the way to reset: zeros and a new start", () => {
    const busy = incrementAgencyCounter(createAgencyCounters(T0), "driveTicks", 4);
    expect(resetAgencyCounters(busy, T0 + 5_000)).toEqual(createAgencyCounters(T0 + 5_000));
  });

  it("count an LLM call with its goal tag and non-none intent", () => {
    let c = createAgencyCounters(T0);
    c = countLlmOutput(c, sanitizeLLMOutput("Trees. [GOAL: collect oak_log 8]\nINTENT: gather"));
    c = countLlmOutput(c, sanitizeLLMOutput("Calm.\nINTENT: none"));
    c = countLlmOutput(c, sanitizeLLMOutput("Nothing."));
    expect(c).toMatchObject({ llmCalls: 3, goalTags: 1, intentExtractions: 1 });
  });

  it("count content dedup, low-novelty recorded and broadcast", () => {
    let c = createAgencyCounters(T0);
    let state = createRecordingState();
    const t = {
      id: "t",
      text: "same",
      source: "llm",
      novelty: "high" as const,
      tags: [],
      metadata: {},
      createdAtMs: T0,
    };
    for (let i = 0; i < 6; i++) {
      const r = recordThought(state, t, { similar: i > 0 });
      c = countRecording(c, r);
      state = r.state;
    }
    expect(c).toMatchObject({ contentSuppressions: 5, lowNoveltyRecorded: 5, lowNoveltyBroadcast: 1 });
  });

  it("format the periodic log line exactly", () => {
    let c = createAgencyCounters(T0);
    c = incrementAgencyCounter(c, "llmCalls", 12);
    c = incrementAgencyCounter(c, "goalTags", 3);
    c = incrementAgencyCounter(c, "driveTicks", 2);
    c = incrementAgencyCounter(c, "signatureSuppressions", 4);
    c = incrementAgencyCounter(c, "contentSuppressions", 5);
    c = incrementAgencyCounter(c, "intentExtractions", 1);
    c = incrementAgencyCounter(c, "lowNoveltyRecorded", 9);
    expect(formatAgencyCountersLine(c, T0 + 7 * 60_000 + 59_999)).toBe(
      "[Agency 7m] llm=12 goals=3 drives=2 sigDedup=4 contentDedup=5 intents=1",
    );
    expect(formatAgencyCountersLine(c, T0 - 1)).toMatch(/^\[Agency 0m\]/);
  });
});
