import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyTraceChain } from "../../src/store/index.js";
import { startScriptedModel } from "../support/scripted-model.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Issue 23, item 2: the server's own executors run only after a CRA action_pre evaluation in the
// thread's session (atlas policies with param conditions), and an action_post records each run.

type TraceEvent = { phase: string; summary: string; metadata: Record<string, unknown> };

describe("the server's own actions under CRA", () => {
  let hook: Server;
  const hookCalls: string[] = [];
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let srv: TestServer;
  let port = 0;
  let turn = 0;

  beforeAll(async () => {
    hook = createServer((req, res) => {
      hookCalls.push(`${req.headers.host}${req.url}`);
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    port = (hook.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), "sol-atlas-"));
    const atlasPath = join(dir, "atlas.json");
    writeFileSync(
      atlasPath,
      JSON.stringify({
        atlas_id: "policy-test",
        version: "1",
        policies: [
          {
            policy_id: "webhook-hosts",
            actions: ["webhook"],
            decision: "denied",
            reason: "webhooks may only go to 127.0.0.1",
            when: { host: { not_in: ["127.0.0.1"] } },
          },
          {
            policy_id: "no-night-reminders",
            actions: ["create_reminder"],
            decision: "denied",
            reason: "reminders titled 'wake the neighbours' are not allowed",
            when: { title: { matches: "*neighbours*" } },
          },
        ],
      }),
    );
    model = await startScriptedModel();
    srv = await startTestServer({
      backend: "sqlite-memory",
      provider: model.provider,
      env: {
        SOL_ATLAS: atlasPath,
        SOL_WEBHOOK_URL: `http://127.0.0.1:${port}/sol`,
        SOL_WEBHOOK_ALLOWLIST: `http://localhost:${port}`,
      },
    });
  });
  afterAll(async () => {
    await srv.close();
    await model.close();
    hook.closeAllConnections();
    await new Promise((resolve) => hook.close(resolve));
  });

  async function propose(threadId: string, kind: string, payload: Record<string, unknown>) {
    model.reply({
      kind: "json",
      body: {
        assistant_text: "Ready when you are.",
        meta: {
          action_needed: [
            {
              action_kind: kind,
              action_label: `Do ${kind}`,
              action_summary_bullets: [`${kind}: ${JSON.stringify(payload)}`],
              action_payload: payload,
            },
          ],
        },
      },
    });
    turn += 1;
    const res = await srv.request("POST", "/v1/chat", {
      requestId: `pol-${turn}`,
      threadId,
      message: `please do the ${kind}`,
    });
    expect(res.status).toBe(200);
    expect(res.json.actions).toHaveLength(1);
    return res.json.actions[0].action_id as string;
  }
  const execute = (actionId: string, requestId: string) =>
    srv.request("POST", "/v1/actions/execute", { action_id: actionId, request_id: requestId });
  const sessionEvents = async (threadId: string) => {
    const res = await srv.request("GET", `/v1/traces/cra_thread:${threadId}`);
    expect(res.status).toBe(200);
    return res.json.events as TraceEvent[];
  };

  it("a webhook to a host the atlas denies never runs, even after Approve, and the receipt says why", async () => {
    const actionId = await propose("th-hook-denied", "webhook", { url: `http://localhost:${port}/sol` });
    const before = hookCalls.length;
    const res = await execute(actionId, "deny-1");
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("failed");
    expect(res.json.error.reason).toBe("Not allowed: webhooks may only go to 127.0.0.1");
    expect(hookCalls.length).toBe(before);
    // Approving again does not get it through either.
    expect((await execute(actionId, "deny-2")).json.status).toBe("failed");
    expect(hookCalls.length).toBe(before);
    const shown = await srv.request("GET", `/v1/actions/${actionId}`);
    expect(shown.json).toMatchObject({
      status: "failed",
      error: { reason: expect.stringContaining("127.0.0.1") },
    });
    const events = await sessionEvents("th-hook-denied");
    const pre = events.filter((e) => e.summary.startsWith("action_pre"));
    expect(pre.at(-1)?.summary).toBe("action_pre blocked: webhooks may only go to 127.0.0.1");
    expect(events.some((e) => e.summary.startsWith("action_post"))).toBe(false);
    const gate = events.filter((e) => e.phase === "action_gate").map((e) => e.summary);
    expect(gate).toEqual([
      "Approved: Do webhook",
      "Failed: Not allowed: webhooks may only go to 127.0.0.1",
      "Approved: Do webhook",
      "Failed: Not allowed: webhooks may only go to 127.0.0.1",
    ]);
  });

  it("an allowed webhook runs once, after an action_pre, and an action_post records it", async () => {
    const actionId = await propose("th-hook-ok", "webhook", { title: "deploy" });
    const before = hookCalls.length;
    const res = await execute(actionId, "allow-1");
    expect(res.json).toMatchObject({ status: "succeeded" });
    expect(hookCalls.length).toBe(before + 1);
    const summaries = (await sessionEvents("th-hook-ok")).map((e) => e.summary);
    const pre = summaries.findIndex((s) => s.startsWith("action_pre"));
    const post = summaries.findIndex((s) => s.startsWith("action_post"));
    expect(pre).toBeGreaterThanOrEqual(0);
    expect(post).toBeGreaterThan(pre);
    const gate = (await sessionEvents("th-hook-ok")).filter((e) => e.phase === "action_gate");
    expect(gate.map((e) => e.summary)).toEqual([
      "Approved: Do webhook",
      expect.stringMatching(/^Executed: Webhook delivered to 127\.0\.0\.1/),
    ]);
    expect(gate[0]?.metadata).toMatchObject({
      action_id: actionId,
      action_kind: "webhook",
      request_id: "allow-1",
    });
  });

  it('"Not now" is recorded in the session trace, and the chain verifies', async () => {
    const actionId = await propose("th-later", "create_reminder", { title: "stretch", due: "5pm" });
    const res = await srv.request("POST", `/v1/actions/${actionId}/defer`, {});
    expect(res.json).toEqual({ status: "deferred" });
    const events = await sessionEvents("th-later");
    expect(events.filter((e) => e.phase === "action_gate").map((e) => e.summary)).toEqual([
      "Not now: Do create_reminder",
    ]);
    expect(verifyTraceChain(events as never)).toBe(true);
  });

  it("a policy on a payload field denies a reminder; another reminder runs", async () => {
    const denied = await propose("th-rem", "create_reminder", { title: "wake the neighbours", due: "6am" });
    const res = await execute(denied, "rem-1");
    expect(res.json).toMatchObject({ status: "failed" });
    expect(res.json.error.reason).toContain("wake the neighbours");
    const allowed = await propose("th-rem", "create_reminder", { title: "water the plants", due: "6pm" });
    expect((await execute(allowed, "rem-2")).json.status).toBe("succeeded");
  });
});
