import { expect, it } from "vitest";
import { startScriptedModel } from "../../../server/test/support/scripted-model.js";
import { SolClient } from "../../src/index.js";
import { startTestServer } from "../support/real-server.js";

// A draft stopped mid-stream is linted for prefix checks only; against a complete regeneration that
// fails only end-of-reply rigor gates it must not win, or the cut-off prefix becomes the final reply.
it("does not settle on a stopped draft's prefix over a complete regeneration that fails only end-of-reply checks", async () => {
  const model = await startScriptedModel();
  const srv = await startTestServer({ backend: "sqlite-memory", provider: model.provider });
  try {
    const draft = "Good question. As your lawyer, I would sign.";
    const raw = JSON.stringify({ assistant_text: draft, meta: {} });
    model.reply(
      { kind: "stream", chunks: [raw.slice(0, 20), raw.slice(20, 30), raw.slice(30)] },
      { kind: "json", body: { assistant_text: "Good question; a lawyer can advise you.", meta: {} } },
    );
    const client = new SolClient({ baseUrl: srv.url });
    let content = "";
    // "Should I sign ...?" routes to a mode with rigor gates, which the regeneration does not meet.
    for await (const e of client.chatStream({
      threadId: "t",
      message: "Should I sign the fund agreement?",
    })) {
      if (e.type === "final") content = e.response.assistant.content;
    }
    expect(content).toBe("Good question; a lawyer can advise you.");
  } finally {
    await srv.close();
    await model.close();
  }
});
