import { createManualClock } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { createOfflineProvider, resolveDueTime } from "../../src/index.js";
import { trimClause } from "../../src/providers/offline/text-cues.js";
import { mainRequest } from "./helpers.js";

// A long run of the characters a clause or due phrase is trimmed of, ending in something else. The
// old trailing-run patterns rescanned such a run from each of its characters (quadratic): about two
// seconds for these 40,000 characters; a linear scan takes a few milliseconds.
const RUN = " ,".repeat(20_000);

async function elapsed(work: () => unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

describe("offline provider: hostile message text", () => {
  it("trims clauses as before", () => {
    expect(trimClause("call mom, ")).toBe("call mom");
    expect(trimClause("call mom!?")).toBe("call mom");
    expect(trimClause("a, b")).toBe("a, b");
    expect(trimClause(" ,;")).toBe("");
    expect(
      resolveDueTime("tomorrow at 9!", { nowMs: Date.parse("2025-03-05T12:00:00Z"), offsetMinutes: 0 }),
    ).toBe("2025-03-06T09:00:00.000Z");
  });

  it("answers a message with a long run of trailing-run characters in linear time", async () => {
    const provider = createOfflineProvider({ clock: createManualClock(0) });
    expect(await elapsed(() => trimClause(`call${RUN}x`))).toBeLessThan(300);
    expect(
      await elapsed(() => resolveDueTime(`tomorrow${"!".repeat(40_000)}x`, { nowMs: 0, offsetMinutes: 0 })),
    ).toBeLessThan(300);
    for (const message of [`I need to call${RUN}x`, `Remind me to call${RUN}x tomorrow`]) {
      expect(await elapsed(() => provider.complete(mainRequest(message)))).toBeLessThan(300);
    }
  });
});
