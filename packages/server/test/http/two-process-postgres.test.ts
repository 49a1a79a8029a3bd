import type { SolStore } from "@solserver/core";
import {
  echoEnvelope,
  type RecordedRequest,
  type ScriptedUpstream,
  startScriptedUpstream,
} from "@solserver/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/index.js";
import { ensureServerBuilt, type ServeProcess, startServeProcess } from "../support/built-cli.js";
import { announcePgSkip, createPgTestSchema, type PgTestSchema, pgTestsDisabled } from "../support/pg.js";

const REQUEST_IDS = 50;
const COPIES = 4;

function isSelectorRequest(req: RecordedRequest): boolean {
  const messages =
    (req.body as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
  return messages.some((m) => m.role === "system" && m.content.includes("mode selector"));
}

interface ChatJson {
  transmissionId: string;
  requestId: string;
  assistant: { messageId: string; content: string };
  validation: { regenerated: boolean };
  usage: { modelCalls: number };
}

// Idempotency must hold across processes: the database, not process memory, decides who runs a
// turn. Fails when PostgreSQL is unreachable, unless SOL_TEST_NO_PG=1 says this machine has none.
announcePgSkip("two-process-postgres");
describe.skipIf(pgTestsDisabled())("two server processes on one PostgreSQL schema", () => {
  let schema: PgTestSchema;
  let upstream: ScriptedUpstream;
  let servers: ServeProcess[] = [];
  const calls = { main: 0, selector: 0 };

  beforeAll(async () => {
    await ensureServerBuilt();
    schema = await createPgTestSchema("sol_2proc");
    upstream = await startScriptedUpstream({
      record: false,
      // Selector prompts are answered (and counted) apart, so only main calls are compared to turns.
      fallback: (req) => {
        if (isSelectorRequest(req)) {
          calls.selector += 1;
          return { kind: "json", body: { modeLabel: "assist", confidence: 0.9, reasons: ["scripted"] } };
        }
        calls.main += 1;
        // Model latency keeps the copies of one requestId overlapping on both servers.
        return { kind: "json", body: echoEnvelope(req), delayMs: 40 };
      },
    });
    const env = {
      SOL_DB_URL: schema.url,
      SOL_LLM: "openai",
      SOL_LLM_BASE_URL: upstream.url,
      SOL_LLM_MODEL: "scripted",
      // A retried call would be a second upstream request for one turn; none is expected here.
      SOL_LLM_MAX_RETRIES: "0",
      SOL_RATE_LIMIT_PER_MIN: "0",
      SOL_MAX_CONCURRENT_PER_KEY: "0",
    };
    servers = await Promise.all([startServeProcess(env), startServeProcess(env)]);
  }, 180_000);

  afterAll(async () => {
    const codes = await Promise.all(servers.map((s) => s.stop()));
    await upstream?.close();
    await schema?.drop();
    // Graceful shutdown on SIGTERM exits 0.
    expect(codes.every((c) => c === 0)).toBe(true);
  });

  it("runs each of 50 requestIds exactly once for 200 concurrent requests spread over both", async () => {
    const [a, b] = servers;
    expect(a?.url).not.toBe(b?.url);
    const packets = Array.from({ length: REQUEST_IDS }, (_, i) => ({
      requestId: `two-proc-${i}`,
      threadId: `two-proc-thread-${i}`,
      message: `Item ${i}: I need to plan my week and book the dentist.`,
    }));
    const sends = packets.flatMap((packet) =>
      Array.from({ length: COPIES }, (_, copy) => {
        const base = copy % 2 === 0 ? a?.url : b?.url;
        return fetch(new URL("/v1/chat", base), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(packet),
        }).then(async (res) => ({
          status: res.status,
          replayed: res.headers.get("idempotent-replayed") === "true",
          text: await res.text(),
        }));
      }),
    );
    const replies = await Promise.all(sends);

    for (const reply of replies) expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    const byRequest = new Map<string, { json: ChatJson; replayed: boolean }[]>();
    for (const reply of replies) {
      const json = JSON.parse(reply.text) as ChatJson;
      byRequest.set(json.requestId, [
        ...(byRequest.get(json.requestId) ?? []),
        { json, replayed: reply.replayed },
      ]);
    }
    expect(byRequest.size).toBe(REQUEST_IDS);
    const transmissionIds = new Set<string>();
    let modelCallsOfTurns = 0;
    for (const [requestId, group] of byRequest) {
      expect(group, requestId).toHaveLength(COPIES);
      const [first] = group;
      for (const { json } of group) {
        expect(json.transmissionId).toBe(first?.json.transmissionId);
        expect(json.assistant.messageId).toBe(first?.json.assistant.messageId);
        expect(json).toEqual(first?.json);
      }
      // One copy ran the turn; the other three got its stored response.
      expect(
        group.filter((g) => !g.replayed),
        requestId,
      ).toHaveLength(1);
      expect(first?.json.validation.regenerated).toBe(false);
      transmissionIds.add(first?.json.transmissionId ?? "");
      modelCallsOfTurns += group.find((g) => !g.replayed)?.json.usage.modelCalls ?? 0;
    }
    expect(transmissionIds.size).toBe(REQUEST_IDS);

    expect(calls.main).toBe(REQUEST_IDS);
    expect(modelCallsOfTurns).toBe(calls.main + calls.selector);
    expect(upstream.requestCount).toBe(calls.main + calls.selector);

    const store: SolStore = await openStore(schema.url);
    try {
      expect(await store.transmissions.count("default")).toBe(REQUEST_IDS);
      for (const packet of packets) {
        const tx = await store.transmissions.getByRequestId("default", packet.requestId);
        expect(tx?.status).toBe("succeeded");
        expect(tx?.deliveryAttempts).toHaveLength(1);
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});
