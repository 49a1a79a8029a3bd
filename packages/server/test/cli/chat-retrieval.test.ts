import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRetrieval } from "../../src/cli/chat-command.js";
import { ensureServerBuilt, runCli } from "../support/built-cli.js";

/** A turn response as api.md §3 gives it, with what retrieval injected. */
function turnResponse(threadId: string, memories: unknown[]) {
  return {
    transmissionId: "tx_1",
    requestId: "r",
    threadId,
    assistant: { messageId: "m_2", content: "Noted." },
    modeDecision: {
      modeLabel: "companion",
      domainFlags: [],
      rigorConfig: { level: "normal", requireCitations: false, requireAssumptions: false },
      clusterIds: [],
      checkpointNeeded: false,
      confidence: 0.9,
      reasons: [],
      version: "1",
      step: 1,
    },
    breakpoint: { decision: "skip", peakGuardrailActive: false },
    threadMemento: null,
    actions: [],
    validation: { passed: true, regenerated: false, violations: [] },
    retrieval: { memories },
    trace: { traceRunId: "run_1" },
    usage: { modelCalls: 1 },
  };
}

describe("describeRetrieval", () => {
  it("names each retrieved memory with its score and summary, in the server's order", () => {
    const lines = describeRetrieval(
      turnResponse("t", [
        { memoryId: "mem_1", summary: "Sister's birthday is 3 May", score: 0.8123 },
        { memoryId: "mem_2", summary: "Allergic to nuts", score: 0.4 },
      ]),
    );
    expect(lines).toEqual([
      'retrieved 0.81 "Sister\'s birthday is 3 May" (mem_1)',
      'retrieved 0.40 "Allergic to nuts" (mem_2)',
    ]);
  });

  it("shows nothing when nothing was retrieved, the field is absent or an entry has another shape", () => {
    expect(describeRetrieval(turnResponse("t", []))).toEqual([]);
    expect(describeRetrieval({})).toEqual([]);
    expect(describeRetrieval(null)).toEqual([]);
    expect(describeRetrieval({ retrieval: { memories: [{ memoryId: "x" }] } })).toEqual([]);
  });
});

describe("sol chat prints what each turn retrieved", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    await ensureServerBuilt();
    // A stand-in for a server whose turns retrieve memories.
    server = createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.method === "POST" && req.url === "/v1/chat") {
        res.end(
          JSON.stringify(
            turnResponse("t", [{ memoryId: "mem_9", summary: "Prefers the night train", score: 1.5 }]),
          ),
        );
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { code: "not_found", message: "none" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 180_000);
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("lists the retrieved memory's summary and score under the reply", async () => {
    const run = await runCli(["chat", "--url", url, "--thread", "t"], { input: "How do I get to Vienna?\n" });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^sol> Noted\.$/m);
    expect(run.stdout).toMatch(/^ {2}retrieved 1\.50 "Prefers the night train" \(mem_9\)$/m);
  });
});
