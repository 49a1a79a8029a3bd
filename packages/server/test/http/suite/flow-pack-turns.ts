import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peakMemento, startScriptedModel } from "../../support/scripted-model.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

const envelope = (assistant_text: string) => ({ kind: "json" as const, body: { assistant_text, meta: {} } });

/** Flow-pack rules a turn must keep (thread context, budgets, checkpoints, drift), against a scripted model. */
export function flowPackTurnSuite(backend: Backend): void {
  describe(`flow-pack turn rules on ${backend}`, () => {
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

    const systemText = () =>
      model
        .lastMainPrompt()
        .filter((m) => m.role === "system")
        .map((m) => m.content)
        .join("\n");

    it('thread_context_mode "off" keeps the stored memento out of the checkpoint capsule', async () => {
      const thread = "th-off-capsule";
      const put = await srv.request(
        "PUT",
        `/v1/threads/${thread}/memento`,
        peakMemento(thread, "SECRET-ARC garden"),
        { "if-none-match": "*" },
      );
      expect(put.status).toBe(200);

      const off = await srv.request("POST", "/v1/chat", {
        requestId: "off-capsule-1",
        threadId: thread,
        message: "/checkpoint",
        thread_context_mode: "off",
      });
      expect(off.status).toBe(200);
      expect(off.json.modeDecision.checkpointNeeded).toBe(true);
      expect(systemText()).toContain("# Checkpoint capsule");
      expect(systemText()).not.toContain("SECRET-ARC");

      // The same turn with thread context shows it: the capsule is there, only the memento is held back.
      const auto = await srv.request("POST", "/v1/chat", {
        requestId: "off-capsule-2",
        threadId: thread,
        message: "/checkpoint",
      });
      expect(auto.status).toBe(200);
      expect(systemText()).toContain("Arc: SECRET-ARC garden");
    });

    // "Say hi." is ambiguous for the default router: step 2, so the selector is called.
    const ambiguous = (requestId: string, budgets: Record<string, number>) =>
      srv.request("POST", "/v1/chat", {
        requestId,
        threadId: `th-${requestId}`,
        message: "Say hi.",
        budgets,
        traceConfig: { level: "debug" },
      });

    it("budgets.timeoutMs caps the selector call too; the step-1 guess then routes the turn", async () => {
      model.replySelector({ kind: "hang" });
      const started = Date.now();
      const res = await ambiguous("sel-timeout", { timeoutMs: 400 });
      expect(res.status).toBe(200);
      // The scripted provider's own timeout is 5 s per attempt, with retries.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(res.json.modeDecision.step).toBe(2);
      const selector = res.json.trace.events.find((e: { phase: string }) => e.phase === "selector");
      expect(selector).toMatchObject({ status: "warning", metadata: { code: "provider_error" } });
    });

    it("budgets.maxInputTokens refuses an ambiguous turn before the selector call", async () => {
      const before = { ...model.counts };
      const refused = await ambiguous("sel-budget-1", { maxInputTokens: 10 });
      expect(refused.status).toBe(429);
      expect(refused.json.error).toMatchObject({
        code: "budget_exceeded",
        details: { budget: "maxInputTokens", limit: 10, retryable: false },
      });
      expect(model.counts).toEqual(before);

      const roomy = await ambiguous("sel-budget-2", { maxInputTokens: 100_000 });
      expect(roomy.status).toBe(200);
      expect(model.counts.selector).toBe(before.selector + 1);
    });

    it("a reply announcing another mode of the pack is regenerated with a patch directive", async () => {
      const before = model.counts.main;
      model.reply(
        envelope("I am switching to companion mode now. Tell me how you feel."),
        envelope("Here is a plan for your afternoon: a walk, then the groceries."),
      );
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "mode-drift-1",
        threadId: "th-mode-drift",
        message: "Plan my afternoon.",
      });
      expect(res.status).toBe(200);
      expect(res.json.modeDecision.modeLabel).toBe("assist");
      expect(res.json.validation).toMatchObject({ passed: true, regenerated: true });
      expect(res.json.assistant.content).toBe(
        "Here is a plan for your afternoon: a walk, then the groceries.",
      );
      expect(model.counts.main - before).toBe(2);
      expect(JSON.stringify(model.lastMainPrompt())).toContain("mode_drift");
    });

    const chat = (requestId: string, threadId: string, message: string) =>
      srv.request("POST", "/v1/chat", { requestId, threadId, message });
    const checkpointReasons = (res: { json: { modeDecision: { reasons: string[] } } }) =>
      res.json.modeDecision.reasons.filter((r) => r.startsWith("checkpoint: "));

    it("a drift flare makes the next turn a checkpoint, once", async () => {
      const thread = "th-flare";
      model.reply(
        envelope("Done. I sent the email to your landlord."),
        envelope("Here is a draft you can send to your landlord."),
      );
      const flared = await chat("flare-1", thread, "Plan my afternoon.");
      expect(flared.json.validation.regenerated).toBe(true);
      expect(flared.json.modeDecision.checkpointNeeded).toBe(false);

      const next = await chat("flare-2", thread, "What should I pack?");
      expect(next.json.modeDecision.checkpointNeeded).toBe(true);
      expect(checkpointReasons(next)).toEqual(["checkpoint: drift_flare"]);
      expect(systemText()).toContain("# Checkpoint capsule");

      const calm = await chat("flare-3", thread, "And what about snacks?");
      expect(calm.json.modeDecision.modeLabel).toBe(next.json.modeDecision.modeLabel);
      expect(checkpointReasons(calm)).toEqual([]);
    });

    it("a long exchange (token churn) makes the next turn a checkpoint, then the count starts again", async () => {
      const thread = "th-churn";
      // About 5,000 tokens each way: 10,000 in all, over the 8,000 of the default policy.
      const long = "I planted tomatoes, beans and basil along the south fence this week. ".repeat(285);
      expect(long.length).toBeLessThanOrEqual(20_000);
      const first = await chat("churn-1", thread, long);
      expect(first.status).toBe(200);
      expect(checkpointReasons(first)).not.toContain("checkpoint: high_churn");

      const second = await chat("churn-2", thread, "What should I plant next?");
      expect(checkpointReasons(second)).toContain("checkpoint: high_churn");
      const third = await chat("churn-3", thread, "And after that?");
      expect(checkpointReasons(third)).not.toContain("checkpoint: high_churn");
    });

    it("a checkpoint turn's own tokens do not count toward the churn; the turns after it do", async () => {
      const thread = "th-churn-capsule";
      // About 5,000 tokens: two such messages pass the 8,000 of the default policy, one does not.
      const long = "I planted tomatoes, beans and basil along the south fence this week. ".repeat(285);
      expect(checkpointReasons(await chat("capsule-1", thread, long))).not.toContain(
        "checkpoint: high_churn",
      );
      // The capsule turn, itself over 8,000 tokens with the 5,000 carried in.
      expect(checkpointReasons(await chat("capsule-2", thread, long))).toContain("checkpoint: high_churn");
      expect(checkpointReasons(await chat("capsule-3", thread, long))).not.toContain(
        "checkpoint: high_churn",
      );
      expect(checkpointReasons(await chat("capsule-4", thread, long))).toContain("checkpoint: high_churn");
    });

    type Event = { phase: string; metadata: Record<string, unknown> };
    const surfacedOf = (res: { json: { trace: { events: Event[] } } }) =>
      res.json.trace.events.find((e) => e.phase === "drift" && e.metadata.surfaced === true)?.metadata;

    it("a drift check shows the model what the linter found in the previous reply, and is traced", async () => {
      const thread = "th-drift-check";
      model.reply(
        envelope("Done. I sent the email to your landlord."),
        envelope("Here is a draft for your landlord."),
      );
      expect((await chat("check-1", thread, "Plan my afternoon.")).json.validation.regenerated).toBe(true);

      const check = await srv.request("POST", "/v1/chat", {
        requestId: "check-2",
        threadId: thread,
        message: "Drift check: did you drift just now?",
        traceConfig: { level: "debug" },
      });
      expect(check.status).toBe(200);
      expect(systemText()).toContain("Drift check requested by the user");
      expect(systemText()).toContain("Violations: claimed_action_without_receipt.");
      expect(systemText()).toContain("regenerated once; the corrected reply passed");
      expect(surfacedOf(check)).toMatchObject({
        reasons: ["user_asked"],
        previous: { flare: true, regenerated: true, violations: ["claimed_action_without_receipt"] },
      });

      const ordinary = await srv.request("POST", "/v1/chat", {
        requestId: "check-3",
        threadId: thread,
        message: "What should I pack?",
        traceConfig: { level: "debug" },
      });
      expect(systemText()).not.toContain("Drift check requested");
      expect(surfacedOf(ordinary)).toBeUndefined();
    });

    it('a drift check on a thread_context_mode "off" turn is neither shown nor traced', async () => {
      const thread = "th-drift-check-off";
      model.reply(
        envelope("Done. I sent the email to your landlord."),
        envelope("Here is a draft for your landlord."),
      );
      expect((await chat("check-off-1", thread, "Plan my afternoon.")).json.validation.regenerated).toBe(
        true,
      );

      const off = await srv.request("POST", "/v1/chat", {
        requestId: "check-off-2",
        threadId: thread,
        message: "Drift check: did you drift just now?",
        thread_context_mode: "off",
        traceConfig: { level: "debug" },
      });
      expect(off.status).toBe(200);
      expect(systemText()).not.toContain("Drift check requested");
      expect(surfacedOf(off)).toBeUndefined();
    });

    it("a regeneration that fails as well is surfaced in the trace and the validation", async () => {
      model.reply(envelope("Done. I sent the email."), envelope("Done. I sent the email again."));
      const res = await srv.request("POST", "/v1/chat", {
        requestId: "repeat-fail-1",
        threadId: "th-repeat-fail",
        message: "Plan my afternoon.",
        traceConfig: { level: "debug" },
      });
      expect(res.status).toBe(200);
      expect(res.json.validation).toMatchObject({ passed: false, regenerated: true });
      expect(surfacedOf(res)).toMatchObject({
        reasons: ["repeated_regen_failure"],
        violations: ["claimed_action_without_receipt"],
      });
    });
  });
}
