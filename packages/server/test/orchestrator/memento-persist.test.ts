import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel } from "../support/scripted-model.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The memento is persisted only when something a later turn reads has changed (the persist policy).
// What the Breakpoint Engine reads of it must therefore never be left behind by a turn.

const envelope = (assistant_text: string, meta: Record<string, unknown>) => ({
  kind: "json" as const,
  body: { assistant_text, meta },
});
const shape = (arc: string) => ({ arc, active: [], parked: [], decisions: [], next: [] });
const affect = (intensity: number) => ({ label: "overwhelm", intensity, confidence: "high" });

let srv: TestServer;
let model: Awaited<ReturnType<typeof startScriptedModel>>;
beforeAll(async () => {
  model = await startScriptedModel();
  srv = await startTestServer({ backend: "sqlite-memory", provider: model.provider });
});
afterAll(async () => {
  await srv.close();
  await model.close();
});

const turn = async (threadId: string, requestId: string, message: string, extra: object = {}) => {
  const reply = await srv.request("POST", "/v1/chat", { requestId, threadId, message, ...extra });
  expect(reply.status).toBe(200);
  return reply.json;
};

describe("memento persistence keeps what the Breakpoint Engine reads", () => {
  it("a turn that takes the intensity to high is kept, so the next turn's peak guardrail holds", async () => {
    const thread = "th-persist-intensity";
    // 0.65: one reading below 0.7, phase settled, bucket med.
    model.reply(envelope("I hear you.", { shape: shape("work stress"), affect_signal: affect(0.65) }));
    await turn(thread, "pi-1", "Work has been a lot lately.");
    // 0.72: delta 0.07, phase still settled, but the bucket is now high.
    model.reply(envelope("That sounds hard.", { shape: shape("work stress"), affect_signal: affect(0.72) }));
    const second = await turn(thread, "pi-2", "Everything is falling apart at work.");
    expect(second.threadMemento.affect.rollup).toMatchObject({ phase: "settled", intensityBucket: "high" });
    const stored = await srv.request("GET", `/v1/threads/${thread}/memento`);
    expect(stored.json.affect.rollup.intensityBucket).toBe("high");
    // High intensity and a skip decision: the model's new arc is discarded.
    model.reply(envelope("Sure.", { shape: shape("a brand new arc") }));
    const third = await turn(thread, "pi-3", "ok thanks");
    expect(third.breakpoint).toEqual({ decision: "skip", peakGuardrailActive: true });
    expect(third.threadMemento.arc).toBe("work stress");
  });

  it("a quiet turn after a signal turn keeps that turn's signals without repeating its must", async () => {
    const thread = "th-persist-signals";
    model.reply(
      envelope("Plan B it is.", {
        shape: shape("moving"),
        signals: [{ kind: "decision_made", confidence: "high" }],
      }),
    );
    const first = await turn(thread, "ps-1", "Let's go with plan B for the move.");
    expect(first.breakpoint.decision).toBe("must");
    const firstItems = first.threadMemento.signals.items;
    expect(firstItems.map((i: { kind: string }) => i.kind)).toEqual(["decision_made"]);
    expect(firstItems[0].endMessageId).toBe(first.assistant.messageId);
    // No new signal: the memento keeps the newest signals, still anchored to the turn that made them.
    model.reply(envelope("Start with the kitchen.", { shape: shape("moving") }));
    const second = await turn(thread, "ps-2", "What should I pack first?");
    expect(second.breakpoint.decision).toBe("should");
    expect(second.threadMemento.signals.items).toEqual(firstItems);
    // A client sending that memento back gets an acknowledgment treated as one, not a forced must.
    const third = await turn(thread, "ps-3", "ok thanks", {
      context: { thread_memento: second.threadMemento },
    });
    expect(third.breakpoint.decision).toBe("skip");
  });
});
