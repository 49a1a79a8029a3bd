import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

const dir = mkdtempSync(join(tmpdir(), "sol-config-files-"));

/** A small user mode pack: a cooking mode with examples and a call word, plus a fallback mode. */
const pack = {
  name: "kitchen-pack",
  defaultMode: "chat",
  confidenceThreshold: 0.6,
  modes: [
    {
      label: "chef",
      callWords: ["chef!"],
      keywords: ["recipe", "bake", "oven", "simmer"],
      examples: [
        "how long do I bake bread",
        "give me a recipe for lentil soup",
        "what temperature for roasting vegetables in the oven",
        "how do I simmer a tomato sauce",
        "can I swap butter for oil in a cake recipe",
        "what spices go with roast chicken",
      ],
    },
    {
      label: "chat",
      examples: [
        "how was your day",
        "tell me a joke",
        "what do you think about the weather",
        "let's talk about movies",
        "I watched a great film yesterday",
        "any book recommendations",
      ],
    },
  ],
};

/** Extra system Driver Block: requires a sign-off line in every reply. */
const blocks = [
  {
    id: "sign-off",
    version: 1,
    title: "Sign off",
    scope: "system",
    promptConstraints: ["End every reply with the line 'Bon appetit.'"],
    validators: { required: ["Bon appetit"] },
  },
];

describe("user configuration files (SOL_MODES, SOL_DRIVER_BLOCKS)", () => {
  let srv: TestServer;
  beforeAll(async () => {
    writeFileSync(join(dir, "modes.json"), JSON.stringify(pack));
    writeFileSync(join(dir, "blocks.json"), JSON.stringify(blocks));
    srv = await startTestServer({
      backend: "sqlite-memory",
      env: { SOL_MODES: join(dir, "modes.json"), SOL_DRIVER_BLOCKS: join(dir, "blocks.json") },
    });
  });
  afterAll(async () => {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("routes with the user's mode pack loaded from a file", async () => {
    const byCallWord = await srv.request("POST", "/v1/chat", {
      requestId: "m1",
      threadId: "k",
      message: "chef! quick dinner idea",
    });
    expect(byCallWord.status).toBe(200);
    expect(byCallWord.json.modeDecision).toMatchObject({ modeLabel: "chef", step: 0, confidence: 1 });
    const learned = await srv.request("POST", "/v1/chat", {
      requestId: "m2",
      threadId: "k2",
      message: "give me a recipe to bake cookies in the oven",
    });
    expect(learned.json.modeDecision.modeLabel).toBe("chef");
    expect(["assist", "companion", "system"]).not.toContain(learned.json.modeDecision.modeLabel);
  });

  it("applies an extra system Driver Block by ref and enforces its validator", async () => {
    const res = await srv.request("POST", "/v1/chat", {
      requestId: "b1",
      threadId: "k3",
      message: "how long should pasta boil",
      driverBlockRefs: [{ id: "sign-off", version: 1 }],
      traceConfig: { level: "debug" },
    });
    expect(res.status).toBe(200);
    const policy = res.json.trace.events.find((e: { phase: string }) => e.phase === "policy");
    expect(policy.metadata.blocks.map((b: { id: string }) => b.id)).toContain("sign-off");
    // The offline provider honours required phrases, so the reply carries the sign-off and passes.
    expect(res.json.assistant.content).toContain("Bon appetit");
    expect(res.json.validation.passed).toBe(true);
  });

  it("refuses to start with an invalid mode pack, naming the file and the field", async () => {
    writeFileSync(join(dir, "bad-modes.json"), JSON.stringify({ defaultMode: "x", modes: [{ label: "" }] }));
    await expect(
      startTestServer({ backend: "sqlite-memory", env: { SOL_MODES: join(dir, "bad-modes.json") } }),
    ).rejects.toThrow(/bad-modes\.json.*modes/s);
  });
});
