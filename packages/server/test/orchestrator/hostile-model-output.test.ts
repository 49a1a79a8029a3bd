import type { LlmProvider } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { startTestServer } from "../support/test-server.js";

const deep = `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`;
const reply = `{"assistant_text":"Sent.","meta":{"action_needed":[{"action_kind":"webhook","action_label":"Send","action_summary_bullets":["x"],"action_payload":${deep}}]}}`;

const hostile: LlmProvider = {
  name: "hostile",
  model: "m",
  complete: async () => ({ text: reply, provider: "hostile", model: "m", offline: false }),
};

describe("a model reply nesting an action payload 20,000 levels deep", () => {
  it("is answered without the action instead of failing the turn with a 500", async () => {
    const s = await startTestServer({ backend: "sqlite-memory", provider: hostile });
    try {
      const r = await s.request("POST", "/v1/chat", { requestId: "r1", threadId: "t1", message: "send it" });
      expect(r.status).toBe(200);
      expect(r.json.actions).toEqual([]);
      expect(r.json.validation.violations.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });
});
