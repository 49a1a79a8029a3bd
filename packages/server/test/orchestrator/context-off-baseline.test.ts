import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peakMemento } from "../support/scripted-model.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// thread_context_mode "off" is a stateless turn: the thread's memento is neither read nor advanced,
// so the stored memento's affect does not reach the Breakpoint Engine's peak guardrail either.

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-memory" });
});
afterAll(async () => {
  await srv.close();
});

type TraceEvent = { phase: string; metadata: Record<string, unknown> };

describe('thread_context_mode "off" and the stored memento', () => {
  it("a stored memento at peak does not activate the guardrail of a stateless turn", async () => {
    const thread = "th-off-peak";
    const put = await srv.request("PUT", `/v1/threads/${thread}/memento`, peakMemento(thread, "Peak arc"), {
      "if-none-match": "*",
    });
    expect(put.status).toBe(200);
    const off = await srv.request("POST", "/v1/chat", {
      requestId: "off-peak-1",
      threadId: thread,
      message: "I keep thinking about the history of Rome.",
      thread_context_mode: "off",
      traceConfig: { level: "debug" },
    });
    expect(off.status).toBe(200);
    expect(off.json.breakpoint).toEqual({ decision: "should", peakGuardrailActive: false });
    const events: TraceEvent[] = off.json.trace.events;
    expect(events.find((e) => e.phase === "memento_load")?.metadata.source).toBe("none");
    expect(events.find((e) => e.phase === "breakpoint")?.metadata.peakGuardrailActive).toBe(false);

    // The first turn with thread context reads the PUT's change (summaryChanged): a must.
    const first = await srv.request("POST", "/v1/chat", {
      requestId: "off-peak-2",
      threadId: thread,
      message: "I keep thinking about the history of Rome.",
    });
    expect(first.json.breakpoint).toEqual({ decision: "must", peakGuardrailActive: false });
    // The same message with a peak memento as the baseline (sent, nothing stored): should is frozen.
    const other = "th-off-peak-request";
    const auto = await srv.request("POST", "/v1/chat", {
      requestId: "off-peak-3",
      threadId: other,
      message: "I keep thinking about the history of Rome.",
      context: { thread_memento: peakMemento(other, "Peak arc") },
    });
    expect(auto.json.breakpoint).toEqual({ decision: "should", peakGuardrailActive: true });
  });
});
