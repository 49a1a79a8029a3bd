import { createCheckpointEngine, createManualClock } from "@solserver/core";
import { describe, expect, it } from "vitest";
import type { CheckpointPlugin } from "../../src/cra/engine/types.js";

const atlas = {
  checkpoint_config: {
    keyword_match: { keywords: { password: ["pw"], secret: ["sec"] }, once_per_session: true },
  },
  context_blocks: [
    { context_id: "pw", name: "Passwords", content: "[pw]" },
    { context_id: "sec", name: "Secrets", content: "[sec]" },
  ],
};

// A plugin ahead of keyword_match (650 > 600) that rewrites the input.
const redact = (from: string, to: string): CheckpointPlugin => ({
  name: "redact",
  checkpointTypes: [
    {
      name: "redactor",
      defaultPriority: 650,
      events: ["input"],
      handler: (ctx) => ({ continue: true, modifiedInput: (ctx.inputText ?? "").replaceAll(from, to) }),
    },
  ],
});

const engineWith = (plugin: CheckpointPlugin) =>
  createCheckpointEngine({ atlas, clock: createManualClock(0), plugins: [plugin] });

describe("keyword_match after an earlier handler rewrote the input", () => {
  it("matches the rewritten input, as the spec's handler reads ctx.input.content", async () => {
    const engine = engineWith(redact("password", "********"));
    const s = engine.createSession("s");
    const r = await engine.evaluate(s, { type: "input", input: "my password and secret" });
    expect(r.modifiedInput).toBe("my ******** and secret");
    expect(r.injectContext).toEqual(["[sec]"]);
    const injected = r.traceEvents.find((e) => e.eventType === "context_injected");
    expect(injected?.payload).toMatchObject({ keywords: ["secret"], contexts: ["sec"] });
    // The redacted pattern did not fire, so once_per_session still lets it fire later.
    expect(s.firedPatterns).toEqual(["keyword:secret"]);
  });

  it("injects and records nothing when no keyword is left", async () => {
    const engine = engineWith(redact("password", "********"));
    const s = engine.createSession("s");
    const r = await engine.evaluate(s, { type: "input", input: "my password" });
    expect(r.injectContext).toEqual([]);
    expect(r.continue).toBe(true);
    expect(r.traceEvents.map((e) => e.eventType)).toEqual(["custom_checkpoint"]);
    expect(s.firedPatterns).toEqual([]);
  });
});
