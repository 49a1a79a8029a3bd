import { createManualClock } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facadeClient } from "../support/openai-client.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Wednesday 2025-03-05, 16:00 UTC: Wednesday 11:00 in New York, already Thursday 01:00 in Tokyo.
const NOW = Date.parse("2025-03-05T16:00:00.000Z");

/** Relative times read in the user's zone (meta.timezone / x-sol-timezone), shown with the zone. */
describe("time zones", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({
      backend: "sqlite-memory",
      serverOptions: { clock: createManualClock(NOW) },
    });
  });
  afterAll(async () => {
    await srv.close();
  });

  const remind = async (timezone: string, requestId: string) => {
    const reply = await srv.request("POST", "/v1/chat", {
      requestId,
      threadId: `tz-${requestId}`,
      message: "Remind me to call mom tomorrow at 9",
      meta: { timezone },
    });
    expect(reply.status).toBe(200);
    const [action] = reply.json.actions;
    return action as {
      action_id: string;
      action_summary_bullets: string[];
      action_payload_preview?: unknown;
    };
  };

  it("'tomorrow at 9' in New York and in Tokyo are different instants, and the chip and receipt name the zone", async () => {
    const ny = await remind("America/New_York", "ny");
    const tokyo = await remind("Asia/Tokyo", "tokyo");
    expect(ny.action_summary_bullets).toContain(
      "Due: tomorrow at 9 (Thu 6 Mar 2025, 09:00 (America/New_York))",
    );
    // In Tokyo it is already Thursday: tomorrow is Friday.
    expect(tokyo.action_summary_bullets).toContain("Due: tomorrow at 9 (Fri 7 Mar 2025, 09:00 (Asia/Tokyo))");
    const receipts: string[] = [];
    for (const [action, key] of [
      [ny, "exec-ny"],
      [tokyo, "exec-tokyo"],
    ] as const) {
      const done = await srv.request("POST", "/v1/actions/execute", {
        action_id: action.action_id,
        request_id: key,
      });
      expect(done.json.status).toBe("succeeded");
      receipts.push(done.json.receipt.summary);
    }
    expect(receipts[0]).toBe("Reminder created: call mom (due Thu 6 Mar 2025, 09:00 (America/New_York))");
    expect(receipts[1]).toBe("Reminder created: call mom (due Fri 7 Mar 2025, 09:00 (Asia/Tokyo))");
    const list = await srv.request("GET", "/v1/reminders");
    const dueAt = Object.fromEntries(
      list.json.reminders.map((r: { thread_id: string; due_at: string }) => [r.thread_id, r.due_at]),
    );
    expect(dueAt["tz-ny"]).toBe("2025-03-06T14:00:00.000Z");
    expect(dueAt["tz-tokyo"]).toBe("2025-03-07T00:00:00.000Z");
  });

  it("an invalid meta.timezone is a 400 naming the field", async () => {
    const reply = await srv.request("POST", "/v1/chat", {
      requestId: "bad-zone",
      threadId: "tz-bad",
      message: "hi",
      meta: { timezone: "Europe/Atlantis" },
    });
    expect(reply.status).toBe(400);
    expect(reply.json.error.details.map((d: { path: string }) => d.path)).toContain("meta.timezone");
  });

  it("x-sol-timezone on the Responses facade reads the reminder in that zone", async () => {
    const client = facadeClient(srv.url);
    const { response } = await client.responses
      .create(
        { model: "sol", input: "Remind me to stretch in 2 hours" },
        { headers: { "x-sol-timezone": "Europe/Paris" } },
      )
      .withResponse();
    const [listed] = JSON.parse(response.headers.get("x-sol-actions") ?? "[]");
    const action = await srv.request("GET", `/v1/actions/${listed.action_id}`);
    expect(action.json.action_summary_bullets).toContain(
      "Due: in 2 hours (Wed 5 Mar 2025, 19:00 (Europe/Paris))",
    );
  });
});
