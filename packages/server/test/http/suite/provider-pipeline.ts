import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peakMemento, startScriptedModel } from "../../support/scripted-model.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

const envelope = (assistant_text: string, meta: Record<string, unknown> = {}) => ({
  kind: "json" as const,
  body: { assistant_text, meta },
});

/** Turns through the `openai` adapter against a scripted upstream: S5, failures, the seed's case. */
export function providerPipelineSuite(backend: Backend): void {
  describe(`provider pipeline on ${backend}`, () => {
    let srv: TestServer;
    let model: Awaited<ReturnType<typeof startScriptedModel>>;
    beforeAll(async () => {
      model = await startScriptedModel();
      srv = await startTestServer({ backend, provider: model.provider });
    });
    afterAll(async () => {
      await srv.close();
      await model.close();
    });

    it("at peak intensity 'ok thanks' keeps the arc and the trace says SKIP", async () => {
      model.reply(
        envelope("You're welcome.", {
          shape: { arc: "A new arc", active: [], parked: [], decisions: [], next: [] },
        }),
      );
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "peak-skip",
        threadId: "th-peak-1",
        message: "ok thanks",
        context: { thread_memento: peakMemento("th-peak-1", "Original arc") },
        traceConfig: { level: "debug" },
      });
      expect(res.status).toBe(200);
      expect(res.json.breakpoint).toEqual({ decision: "skip", peakGuardrailActive: true });
      expect(res.json.threadMemento.arc).toBe("Original arc");
      const bp = res.json.trace.events.find((e: { phase: string }) => e.phase === "breakpoint");
      expect(bp.summary).toBe("Breakpoint decision: SKIP");
      expect(bp.metadata).toMatchObject({ decision: "skip", peakGuardrailActive: true, source: "request" });
    });

    it("at peak intensity a decision_made signal makes it MUST and the arc is replaced", async () => {
      model.reply(
        envelope("Plan B it is.", {
          shape: { arc: "Going with plan B", active: [], parked: [], decisions: ["plan B"], next: [] },
        }),
      );
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "peak-must",
        threadId: "th-peak-2",
        message: "ok thanks",
        context: { thread_memento: peakMemento("th-peak-2", "Original arc", ["decision_made"]) },
      });
      expect(res.status).toBe(200);
      expect(res.json.breakpoint).toEqual({ decision: "must", peakGuardrailActive: false });
      expect(res.json.threadMemento.arc).toBe("Going with plan B");
      expect(res.json.threadMemento.decisions).toEqual(["plan B"]);
    });

    it("a request memento over a stored one wins even when the turn adds nothing to it", async () => {
      const thread = "th-precedence";
      model.reply(
        envelope("Noted.", {
          shape: { arc: "Stored arc", active: ["stored"], parked: [], decisions: [], next: [] },
        }),
      );
      const first = await srv.request("POST", "/v1/chat", {
        requestId: "prec-1",
        threadId: thread,
        message: "first",
      });
      expect(first.json.threadMemento.arc).toBe("Stored arc");
      // No meta at all: the turn changes nothing relative to the client's memento.
      model.reply({ kind: "json", body: { assistant_text: "Receipt: ok" } });
      const requestMemento = {
        ...peakMemento(thread, "Request arc"),
        affect: { points: [], rollup: first.json.threadMemento.affect.rollup },
      };
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "prec-2",
        threadId: thread,
        message: "Prefer my memento over the stored one.",
        context: { thread_memento: requestMemento },
      });
      expect(res.status).toBe(200);
      expect(res.json.threadMemento.arc).toBe("Request arc");
      expect(res.json.threadMemento.active).toEqual(["a thing in flight"]);
      const stored = await srv.request("GET", `/v1/threads/${thread}/memento`);
      expect(stored.json).toEqual(res.json.threadMemento);
    });

    it("regenerates once with patch directives when the output violates, counting every model call", async () => {
      const before = model.counts.main;
      model.reply(
        envelope("Done. I sent the email to your landlord."),
        envelope("Here is a draft you can send to your landlord."),
      );
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "regen-1",
        threadId: "th-regen",
        message: "Write to my landlord about the broken heater.",
      });
      expect(res.status).toBe(200);
      expect(res.json.validation.regenerated).toBe(true);
      expect(res.json.validation.passed).toBe(true);
      expect(res.json.assistant.content).toBe("Here is a draft you can send to your landlord.");
      expect(model.counts.main - before).toBe(2);
      expect(res.json.usage.modelCalls).toBe(2 + (res.json.modeDecision.step === 2 ? 1 : 0));
      const regenRequest = model.upstream.requests.at(-1)?.body as { messages: { content: string }[] };
      expect(JSON.stringify(regenRequest.messages)).toMatch(/receipt|claim/i);
    });

    it("treats malformed model JSON as plain text with a format violation, not an error", async () => {
      // Regenerated once with a format directive; still not an envelope, so its text is the reply.
      model.reply(
        { kind: "text", content: "Sure! {not json at all" },
        { kind: "text", content: "Sure! {not json at all" },
      );
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "malformed-1",
        threadId: "th-mal",
        message: "Say hi.",
      });
      expect(res.status).toBe(200);
      expect(res.json.assistant.content).toBe("Sure! {not json at all");
      expect(res.json.validation.violations.map((v: { code: string }) => v.code)).toEqual(
        expect.arrayContaining(["format_violation", "envelope_meta_lost"]),
      );
      expect(res.json.validation.regenerated).toBe(true);
    });

    it("budgets.maxInputTokens drops the oldest window messages first, then refuses with 429", async () => {
      const thread = "th-budget";
      type AssembleEvent = { phase: string; metadata: Record<string, number> };
      const assembleOf = (json: { trace: { events: AssembleEvent[] } }) =>
        json.trace.events.find((e) => e.phase === "assemble")?.metadata ?? {};
      const turn = (requestId: string, budgets?: Record<string, number>) =>
        srv.request("POST", "/v1/chat", {
          requestId,
          threadId: thread,
          message: `Question number ${requestId} about the garden plan.`,
          traceConfig: { level: "debug" },
          ...(budgets ? { budgets } : {}),
        });
      for (const id of ["bud-1", "bud-2"]) expect((await turn(id)).status).toBe(200);
      const full = await turn("bud-3");
      const fullAssemble = assembleOf(full.json);
      expect(fullAssemble.windowCount).toBeGreaterThanOrEqual(4);
      const limit = fullAssemble.estimatedInputTokens as number;

      // The thread grew by one exchange: the same budget now fits only without the oldest messages.
      const trimmed = await turn("bud-4", { maxInputTokens: limit });
      expect(trimmed.status).toBe(200);
      const trimmedAssemble = assembleOf(trimmed.json);
      expect(trimmedAssemble.trimmedForBudget).toBeGreaterThanOrEqual(1);
      expect(trimmedAssemble.estimatedInputTokens).toBeLessThanOrEqual(limit);
      expect(trimmedAssemble.windowCount).toBeLessThan((fullAssemble.windowCount ?? 0) + 2);

      const callsBefore = model.counts.main;
      const refused = await turn("bud-5", { maxInputTokens: 10 });
      expect(refused.status).toBe(429);
      expect(refused.json.error).toMatchObject({
        code: "budget_exceeded",
        details: { budget: "maxInputTokens", limit: 10, retryable: false },
      });
      expect(refused.json.error.message).toContain("budgets.maxInputTokens (10)");
      expect(model.counts.main).toBe(callsBefore);
      const tx = await srv.server.store.transmissions.getByRequestId("default", "bud-5");
      expect(tx?.status).toBe("failed");
      expect(await srv.server.store.responses.get("default", "bud-5")).toBeNull();
    });

    it("a turn refused for its input budget leaves the thread's checkpoint session as it was", async () => {
      const send = (requestId: string, budgets?: Record<string, number>) =>
        srv.request("POST", "/v1/chat", {
          requestId,
          threadId: "th-budget-first",
          message: "Hello, can you help me plan the garden?",
          traceConfig: { level: "debug" },
          ...(budgets ? { budgets } : {}),
        });
      expect((await send("budget-first-1", { maxInputTokens: 10 })).status).toBe(429);
      const ok = await send("budget-first-2");
      expect(ok.status).toBe(200);
      const checkpoint = (
        ok.json.trace.events as { phase: string; metadata: Record<string, unknown> }[]
      ).find((e) => e.phase === "checkpoint");
      // The session starts with the first turn that ran, so its start contexts still reach the model.
      expect(checkpoint?.metadata).toMatchObject({ sessionStarted: true });
    });

    it("budgets.timeoutMs caps a model call: a slow provider gives 502 and nothing is written", async () => {
      model.reply({ ...envelope("Too late."), delayMs: 3_000 });
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "slow-1",
        threadId: "th-slow",
        message: "Plan my afternoon.",
        budgets: { timeoutMs: 150 },
      });
      expect(res.status).toBe(502);
      expect(res.json.error.code).toBe("provider_error");
      expect(await srv.server.store.messages.countInThread("default", "th-slow")).toBe(0);
    });

    it("answers 502 after retries, marks the transmission failed and writes nothing else; a retry then succeeds", async () => {
      model.reply(
        { kind: "status", status: 503 },
        { kind: "status", status: 503 },
        { kind: "status", status: 503 },
      );
      const packet = { requestId: "fail-1", threadId: "th-fail", message: "Plan my day." };
      const res = await srv.request("POST", "/v1/chat", packet);
      expect(res.status).toBe(502);
      expect(res.json.error.code).toBe("provider_error");
      const tx = await srv.server.store.transmissions.getByRequestId("default", "fail-1");
      expect(tx?.status).toBe("failed");
      expect(tx?.deliveryAttempts.at(-1)).toMatchObject({ status: "failed", errorCode: "provider_error" });
      expect(await srv.server.store.messages.countInThread("default", "th-fail")).toBe(0);
      expect(await srv.server.store.mementos.get("default", "th-fail")).toBeNull();
      expect(await srv.server.store.responses.get("default", "fail-1")).toBeNull();

      const retry = await srv.request("POST", "/v1/chat", packet);
      expect(retry.status).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
      const after = await srv.server.store.transmissions.getByRequestId("default", "fail-1");
      expect(after?.status).toBe("succeeded");
      expect(after?.deliveryAttempts.map((a) => a.status)).toEqual(["failed", "succeeded"]);
      expect(await srv.server.store.messages.countInThread("default", "th-fail")).toBe(2);
    });
  });
}
