import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRouter, type RouterConfigInput } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Flow pack, routing ladder step 1: the deterministic classifier reads the thread's metadata, "last
// modeLabel, known domain tags". A thread that was about finance keeps that tag after a turn in
// another mode, so a later vague message is weighed with it.

const PACK: RouterConfigInput = {
  defaultMode: "assist",
  confidenceThreshold: 0.3,
  modes: [
    { label: "assist", keywords: ["help", "explain"], examples: ["can you explain this", "help me"] },
    {
      label: "money",
      domainFlags: ["finance"],
      rigor: { level: "normal", gates: [] },
      keywords: ["budget", "invoice", "taxes"],
      examples: ["how should I plan my budget", "my invoice is late"],
    },
    { label: "companion", keywords: ["lonely", "sad"], examples: ["I feel lonely", "I am sad today"] },
  ],
};

let srv: TestServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sol-domain-tags-"));
  const modes = join(dir, "modes.json");
  writeFileSync(modes, JSON.stringify(PACK));
  srv = await startTestServer({ backend: "sqlite-memory", env: { SOL_MODES: modes } });
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const turn = async (requestId: string, threadId: string, message: string) => {
  const reply = await srv.request("POST", "/v1/chat", { requestId, threadId, message });
  expect(reply.status).toBe(200);
  return reply.json.modeDecision;
};

describe("routing reads the thread's known domain tags", () => {
  it("a thread tagged finance routes a vague follow-up with that tag", async () => {
    const router = createRouter(PACK);
    const first = await turn("dt-1", "dt", "my invoice and taxes for the budget");
    expect(first).toMatchObject({ modeLabel: "money", domainFlags: ["finance"] });
    expect((await turn("dt-2", "dt", "I feel lonely and sad")).modeLabel).toBe("companion");
    const vague = "what about the deadline?";
    const third = await turn("dt-3", "dt", vague);
    const thread = { lastModeLabel: "companion", messageCount: 4 };
    const withTags = router.route({ message: vague, thread: { ...thread, domainTags: ["finance"] } });
    const withoutTags = router.route({ message: vague, thread });
    expect(withTags.confidence).not.toBe(withoutTags.confidence);
    expect(third).toMatchObject({ modeLabel: withTags.modeLabel, confidence: withTags.confidence });
  });

  it("a thread never tagged routes without domain tags", async () => {
    const router = createRouter(PACK);
    expect((await turn("nt-1", "nt", "I feel lonely and sad")).modeLabel).toBe("companion");
    const vague = "what about the deadline?";
    const second = await turn("nt-2", "nt", vague);
    const expected = router.route({
      message: vague,
      thread: { lastModeLabel: "companion", messageCount: 2 },
    });
    expect(second).toMatchObject({ modeLabel: expected.modeLabel, confidence: expected.confidence });
  });
});
