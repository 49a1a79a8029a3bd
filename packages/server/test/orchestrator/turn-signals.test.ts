import { type ScriptedUpstream, startScriptedUpstream } from "@solserver/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiProvider } from "../../src/index.js";
import { announcePgSkip, pgTestsDisabled } from "../support/pg.js";
import { peakMemento } from "../support/scripted-model.js";
import { type Backend, startTestServer, type TestServer } from "../support/test-server.js";

// Issue 21, signals every turn, over HTTP with a client that sends no signals: the server's detectors,
// the model's signals and the breakpoint's pressures decide the turn that gates the memento.

type TraceEvent = { phase: string; summary: string; metadata: Record<string, unknown> };

function breakpointEvents(reply: { json: { trace: { events: TraceEvent[] } } }) {
  const events = reply.json.trace.events.filter((e) => e.phase === "breakpoint");
  return {
    preCall: events.find((e) => e.metadata.stage === "pre_call"),
    final: events.find((e) => e.metadata.stage === "final"),
  };
}

const DECISION = "We decided to sell the house.";

announcePgSkip("turn-signals");
const backends: Backend[] = pgTestsDisabled() ? ["sqlite-memory"] : ["sqlite-memory", "postgres"];

describe.each(backends)("signals every turn on %s", (backend) => {
  describe("with the offline provider", () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({ backend });
    });
    afterAll(async () => {
      await srv.close();
    });
    const chat = (threadId: string, requestId: string, message: string, extra: object = {}) =>
      srv.request("POST", "/v1/chat", {
        requestId,
        threadId,
        message,
        traceConfig: { level: "debug" },
        ...extra,
      });

    it("a stated decision is a must at peak, traced before and after the call, and reaches decisions", async () => {
      const thread = `th-sig-decision-${backend}`;
      const res = await chat(thread, "sig-d-1", DECISION, {
        context: { thread_memento: peakMemento(thread, "Moving house") },
      });
      expect(res.status).toBe(200);
      expect(res.json.breakpoint).toEqual({ decision: "must", peakGuardrailActive: false });
      const { preCall, final } = breakpointEvents(res);
      expect(preCall?.metadata).toMatchObject({ decision: "must", summaryChanged: false });
      expect(preCall?.metadata.signals).toContainEqual({ kind: "decision_made", source: "server" });
      expect(final?.metadata.decision).toBe("must");
      expect(final?.metadata.signals).toContainEqual({ kind: "decision_made", source: "server" });
      expect(res.json.threadMemento.decisions.join(" ").toLowerCase()).toContain("sell the house");
      const stored = await srv.request("GET", `/v1/threads/${thread}/memento`);
      const kinds = stored.json.signals.items.map((i: { kind: string; endMessageId: string }) => i.kind);
      expect(kinds).toContain("decision_made");
      for (const item of stored.json.signals.items)
        expect(item.endMessageId).toBe(res.json.assistant.messageId);
    });

    it('"ok thanks" stays a skip', async () => {
      const thread = `th-sig-ack-${backend}`;
      await chat(thread, "sig-a-1", "I am planning a trip to Lisbon in May.");
      const res = await chat(thread, "sig-a-2", "ok thanks");
      expect(res.json.breakpoint.decision).toBe("skip");
      const { preCall, final } = breakpointEvents(res);
      expect(preCall?.metadata.decision).toBe("skip");
      expect(final?.metadata).toMatchObject({ decision: "skip", summaryChanged: false });
    });

    it("the turn after a PUT of the memento is a must, and only that turn", async () => {
      const thread = `th-sig-put-${backend}`;
      await chat(thread, "sig-p-1", "I am planning a trip to Lisbon in May.");
      const current = await srv.request("GET", `/v1/threads/${thread}/memento`);
      const put = await srv.request(
        "PUT",
        `/v1/threads/${thread}/memento`,
        { ...current.json, arc: "Trip to Porto instead" },
        { "if-match": current.headers.get("etag") ?? "" },
      );
      expect(put.status).toBe(200);
      const after = await chat(thread, "sig-p-2", "ok thanks");
      expect(after.json.breakpoint.decision).toBe("must");
      expect(breakpointEvents(after).preCall?.metadata.summaryChanged).toBe(true);
      const next = await chat(thread, "sig-p-3", "ok thanks");
      expect(next.json.breakpoint.decision).toBe("skip");
      expect(breakpointEvents(next).final?.metadata.summaryChanged).toBe(false);
    });
  });

  describe("with a small model context", () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({ backend, env: { SOL_CONTEXT_TOKENS: "1024" } });
    });
    afterAll(async () => {
      await srv.close();
    });

    it("a prompt over the context share is pressure: an acknowledgment is no longer a skip", async () => {
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "sig-pressure-1",
        threadId: `th-sig-pressure-${backend}`,
        message: "ok thanks",
        traceConfig: { level: "debug" },
      });
      expect(res.json.breakpoint.decision).toBe("should");
      expect(breakpointEvents(res).final?.metadata.contextWindowPressure).toBe(true);
    });
  });

  describe("with a scripted OpenAI upstream", () => {
    let upstream: ScriptedUpstream;
    let srv: TestServer;
    beforeAll(async () => {
      upstream = await startScriptedUpstream();
      const provider = createOpenAiProvider({
        baseUrl: upstream.url,
        model: "test-model",
        apiKey: "sk-test",
        timeoutMs: 5_000,
      });
      srv = await startTestServer({ backend, provider });
    });
    afterAll(async () => {
      await srv.close();
      await upstream.close();
    });

    it("adds the detected decision to the memento when the model's reply names none", async () => {
      const thread = `th-sig-openai-${backend}`;
      upstream.enqueue({
        kind: "json",
        body: {
          assistant_text: "Understood.",
          meta: { shape: { arc: "Moving house", active: [], parked: [], decisions: [], next: [] } },
        },
      });
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "sig-o-1",
        threadId: thread,
        message: DECISION,
        context: { thread_memento: peakMemento(thread, "Moving house") },
      });
      expect(res.status).toBe(200);
      expect(res.json.breakpoint).toEqual({ decision: "must", peakGuardrailActive: false });
      expect(res.json.threadMemento.decisions).toEqual([DECISION]);
      const stored = await srv.request("GET", `/v1/threads/${thread}/memento`);
      expect(stored.json.decisions).toEqual([DECISION]);
      expect(stored.json.signals.items).toContainEqual(
        expect.objectContaining({ kind: "decision_made", source: "server" }),
      );
    });

    it("a drift flare in the previous turn is driftRisk: an acknowledgment at peak is no longer a skip", async () => {
      const thread = `th-sig-drift-${backend}`;
      const claim = { assistant_text: "Done. I sent the email to your landlord.", meta: {} };
      upstream.enqueue({ kind: "json", body: claim }, { kind: "json", body: claim });
      const flared = await srv.request("POST", "/v1/chat", {
        requestId: "sig-drift-1",
        threadId: thread,
        message: "Write to my landlord about the broken heater.",
        context: { thread_memento: peakMemento(thread, "Heater") },
      });
      expect(flared.status).toBe(200);
      expect(flared.json.validation.regenerated).toBe(true);
      upstream.enqueue({ kind: "json", body: { assistant_text: "You're welcome.", meta: {} } });
      const next = await srv.request("POST", "/v1/chat", {
        requestId: "sig-drift-2",
        threadId: thread,
        message: "ok thanks",
        traceConfig: { level: "debug" },
      });
      expect(next.status).toBe(200);
      const { preCall, final } = breakpointEvents(next);
      expect(preCall?.metadata).toMatchObject({ driftRisk: true });
      expect(final?.metadata).toMatchObject({ driftRisk: true });
      expect(next.json.breakpoint.decision).not.toBe("skip");
      // One clean turn later the risk is gone, and "ok thanks" is a skip again.
      upstream.enqueue({ kind: "json", body: { assistant_text: "Anytime.", meta: {} } });
      const calm = await srv.request("POST", "/v1/chat", {
        requestId: "sig-drift-3",
        threadId: thread,
        message: "ok thanks",
        traceConfig: { level: "debug" },
      });
      expect(breakpointEvents(calm).final?.metadata).toMatchObject({ driftRisk: false });
      expect(calm.json.breakpoint.decision).toBe("skip");
    });
  });
});
