import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel } from "../support/scripted-model.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// api.md §4: the model output envelope, through the openai adapter against a scripted upstream.

describe("api.md §4 conformance: model output envelope v1", () => {
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

  it("a JSON envelope's assistant_text is the reply, and meta.action_needed becomes ActionNeeded", async () => {
    model.reply({
      kind: "json",
      body: {
        assistant_text: "I can set that up.",
        meta: {
          affect_signal: { label: "neutral", intensity: 0.2, confidence: "low" },
          action_needed: [
            {
              action_kind: "create_reminder",
              action_label: "Create Reminder",
              action_summary_bullets: ["Create a reminder: call mum"],
              action_payload: { title: "call mum" },
            },
          ],
        },
      },
    });
    const r = await srv.request("POST", "/v1/chat", {
      requestId: "env-1",
      threadId: "env-t",
      message: "remind me",
    });
    expect(r.status).toBe(200);
    expect(r.json.assistant.content).toBe("I can set that up.");
    expect(r.json.actions).toHaveLength(1);
    const a = r.json.actions[0];
    expect(a).toMatchObject({
      request_id: "env-1",
      action_needed: true,
      action_kind: "create_reminder",
      action_label: "Create Reminder",
      action_summary_bullets: ["Create a reminder: call mum"],
    });
    expect(typeof a.action_id).toBe("string");
  });

  it("plain text is regenerated once; plain text again is the reply, and the lost meta is said", async () => {
    model.reply(
      { kind: "text", content: "Plain words, no JSON." },
      { kind: "text", content: "Just plain words, no JSON." },
    );
    const r = await srv.request("POST", "/v1/chat", {
      requestId: "env-2",
      threadId: "env-t2",
      message: "hello",
    });
    expect(r.status).toBe(200);
    expect(r.json.assistant.content).toBe("Just plain words, no JSON.");
    expect(r.json.validation.regenerated).toBe(true);
    const codes = r.json.validation.violations.map((v: { code: string }) => v.code);
    expect(codes).toEqual(expect.arrayContaining(["format_violation", "envelope_meta_lost"]));
  });
});
