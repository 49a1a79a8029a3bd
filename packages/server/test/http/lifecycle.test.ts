import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LlmProvider, LlmRequest } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOfflineProvider, createSolServer, loadConfig, openStore } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/** The offline provider, except that main calls wait at a gate the test opens. */
function gatedProvider(): { provider: LlmProvider; arrived: Promise<void>; open: () => void } {
  const inner = createOfflineProvider();
  let signalArrived = () => {};
  let open = () => {};
  const arrived = new Promise<void>((resolve) => {
    signalArrived = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    provider: {
      name: inner.name,
      model: inner.model,
      async complete(req: LlmRequest) {
        if (req.purpose === "main") {
          signalArrived();
          await gate;
        }
        return inner.complete(req);
      },
    },
    arrived,
    open,
  };
}

/** POSTs on a fresh connection (no pooled keep-alive socket): a status, or the connection error. */
function postOnNewConnection(
  url: string,
  path: string,
  body: unknown,
): Promise<{ status: number; json: unknown } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(
      new URL(path, url),
      { method: "POST", agent: false, headers: { "content-type": "application/json" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end(JSON.stringify(body));
  });
}

describe("graceful shutdown", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "sol-shutdown-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finishes and commits the turn in flight, and refuses requests that come after close()", async () => {
    const dbUrl = `sqlite:${join(dir, "sol.db")}`;
    const config = loadConfig({
      env: { SOL_PORT: "0", SOL_DB_URL: dbUrl, SOL_RATE_LIMIT_PER_MIN: "0" },
    });
    const gated = gatedProvider();
    const server = await createSolServer(config, { provider: gated.provider });
    const url = await server.listen();

    const inFlight = fetch(new URL("/v1/chat", url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ requestId: "in-flight", threadId: "th-close", message: "Plan my week." }),
    });
    await gated.arrived;
    const closing = server.close();

    const late = await postOnNewConnection(url, "/v1/chat", {
      requestId: "late",
      threadId: "th-close",
      message: "Too late?",
    });
    // Refused either way: a 503 in the error model, or the connection itself (listener gone, or the
    // socket reaped as idle before it carried a request).
    if ("status" in late) {
      expect(late.status).toBe(503);
      expect(late.json).toMatchObject({ error: { code: "unavailable" } });
    } else {
      expect(["ECONNREFUSED", "ECONNRESET"]).toContain(late.error);
    }

    gated.open();
    const res = await inFlight;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { transmissionId: string; assistant: { content: string } };
    await closing;

    const store = await openStore(dbUrl);
    try {
      const tx = await store.transmissions.getByRequestId("default", "in-flight");
      expect(tx?.status).toBe("succeeded");
      expect(tx?.transmissionId).toBe(body.transmissionId);
      expect((await store.responses.get("default", "in-flight"))?.response).toEqual(
        expect.objectContaining({ transmissionId: body.transmissionId }),
      );
      const messages = await store.messages.listRecent("default", "th-close", 10);
      expect(messages.map((m) => m.content)).toEqual(["Plan my week.", body.assistant.content]);
      expect(await store.transmissions.getByRequestId("default", "late")).toBeNull();
    } finally {
      await store.close();
    }
  });
});

describe("per-tenant request budget", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({
      backend: "sqlite-memory",
      env: { SOL_RATE_LIMIT_PER_MIN: "3", SOL_API_KEYS: "alpha:key-a,beta:key-b" },
    });
  });
  afterAll(async () => {
    await srv.close();
  });

  it("answers 429 budget_exceeded with Retry-After once a tenant spends its budget; others keep theirs", async () => {
    const asA = { authorization: "Bearer key-a" };
    const asB = { authorization: "Bearer key-b" };
    const turn = (n: number) => ({ requestId: `budget-${n}`, threadId: "th-budget", message: `Turn ${n}.` });
    for (const n of [1, 2, 3]) {
      expect((await srv.request("POST", "/v1/chat", turn(n), asA)).status).toBe(200);
    }
    const over = await srv.request("POST", "/v1/chat", turn(4), asA);
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe("budget_exceeded");
    expect(typeof over.json.error.message).toBe("string");
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A refused request never started a turn.
    expect(await srv.server.store.transmissions.getByRequestId("alpha", "budget-4")).toBeNull();

    // Tenant beta has its own budget, and the same requestIds are its own.
    for (const n of [1, 2, 3]) {
      expect((await srv.request("POST", "/v1/chat", turn(n), asB)).status).toBe(200);
    }
    expect((await srv.request("POST", "/v1/chat", turn(4), asB)).status).toBe(429);
    // Health is outside /v1 and never budgeted.
    expect((await srv.request("GET", "/healthz")).status).toBe(200);
  });
});
