import { randomBytes } from "node:crypto";
import { connect, createServer, type Socket } from "node:net";
import { startScriptedUpstream } from "@solserver/harness";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAiProvider, createSolServer, loadConfig } from "../../src/index.js";
import { announcePgSkip, createPgTestSchema, pgTestsDisabled } from "../support/pg.js";
import { type HttpReply, startTestServer, type TestServer } from "../support/test-server.js";

const REDIS_URL = process.env.SOL_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = () => `t_${randomBytes(5).toString("hex")}`;

const open: TestServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function start(
  env: Record<string, string>,
  backend: "sqlite-memory" | "postgres" = "sqlite-memory",
  dbUrl?: string,
) {
  const s = await startTestServer({ backend, env, ...(dbUrl ? { dbUrl } : {}) });
  open.push(s);
  return s;
}

/** Sends `count` requests alternating between the instances; the statuses in order. */
async function alternate(instances: readonly TestServer[], count: number): Promise<HttpReply[]> {
  const replies: HttpReply[] = [];
  for (let i = 0; i < count; i++) {
    replies.push(await (instances[i % instances.length] as TestServer).request("GET", "/v1/agency/counters"));
  }
  return replies;
}

function expect429(reply: HttpReply | undefined): void {
  expect(reply?.status).toBe(429);
  expect(reply?.json.error.code).toBe("budget_exceeded");
  const retryAfter = Number(reply?.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(reply?.json.error.details.retryAfterSeconds).toBe(retryAfter);
}

describe("shared rate limits on Redis", () => {
  it("two instances allow the tenant's limit once in total, then 429 with Retry-After", async () => {
    const env = { SOL_REDIS_URL: REDIS_URL, SOL_RATE_LIMIT_PER_MIN: "3", SOL_RATE_LIMIT_PREFIX: prefix() };
    const a = await start(env);
    const b = await start(env);
    const replies = await alternate([a, b], 6);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429, 429, 429]);
    expect429(replies[3]);
    expect429(replies[4]);
  });

  it("the per-key limit counts each API key on its own, across instances", async () => {
    const env = {
      SOL_REDIS_URL: REDIS_URL,
      SOL_RATE_LIMIT_PER_MIN: "0",
      SOL_KEY_RATE_LIMIT_PER_MIN: "2",
      SOL_API_KEYS: "acme:key-one,acme:key-two",
      SOL_RATE_LIMIT_PREFIX: prefix(),
    };
    const a = await start(env);
    const b = await start(env);
    const as = (key: string) => ({ authorization: `Bearer ${key}` });
    const one = [
      await a.request("GET", "/v1/agency/counters", undefined, as("key-one")),
      await b.request("GET", "/v1/agency/counters", undefined, as("key-one")),
      await a.request("GET", "/v1/agency/counters", undefined, as("key-one")),
    ];
    expect(one.map((r) => r.status)).toEqual([200, 200, 429]);
    expect429(one[2]);
    expect((await b.request("GET", "/v1/agency/counters", undefined, as("key-two"))).status).toBe(200);
  });

  it("fails open when Redis goes away mid-run: limits are counted per process, never a 500", async () => {
    const { url, cut, close } = await tcpProxy(6379);
    cleanups.push(close);
    const a = await start({
      SOL_REDIS_URL: url,
      SOL_RATE_LIMIT_PER_MIN: "2",
      SOL_RATE_LIMIT_PREFIX: prefix(),
    });
    expect((await a.request("GET", "/v1/agency/counters")).status).toBe(200);
    cut();
    // The insurance limiter starts its own count: 2 more, then 429; no 500 on the way.
    const replies = await alternate([a], 3);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 429]);
    expect429(replies[2]);
  });

  it("a configured store that cannot be reached is a startup error", async () => {
    const config = loadConfig({
      env: {
        SOL_DB_URL: "sqlite::memory:",
        SOL_REDIS_URL: "redis://127.0.0.1:1",
        SOL_RATE_LIMIT_PER_MIN: "10",
      },
    });
    await expect(createSolServer(config)).rejects.toThrow(/Cannot reach Redis for the rate limits/);
    const pgOnSqlite = loadConfig({
      env: { SOL_DB_URL: "sqlite::memory:", SOL_RATE_LIMIT_STORE: "postgres" },
    });
    await expect(createSolServer(pgOnSqlite)).rejects.toThrow(/SOL_RATE_LIMIT_STORE=postgres needs/);
  });
});

announcePgSkip("limits-shared postgres");
describe.skipIf(pgTestsDisabled())("shared rate limits on PostgreSQL", () => {
  it("two instances on one database allow the tenant's limit once in total", async () => {
    const schema = await createPgTestSchema("sol_limits");
    cleanups.push(schema.drop);
    const env = { SOL_RATE_LIMIT_PER_MIN: "3", SOL_RATE_LIMIT_PREFIX: prefix() };
    const a = await start(env, "postgres", schema.url);
    const b = await start(env, "postgres", schema.url);
    const replies = await alternate([a, b], 6);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429, 429, 429]);
    expect429(replies[5]);
  });
});

describe("token budget", () => {
  it("refuses the next turn once a turn's usage spent the tenant's budget", async () => {
    const env = { SOL_TOKEN_BUDGET_PER_MIN: "5", SOL_RATE_LIMIT_STORE: "memory" };
    const s = await start(env);
    const first = await s.request("POST", "/v1/chat", {
      requestId: "r1",
      threadId: "t",
      message: "hello there",
    });
    expect(first.status).toBe(200);
    const used = (first.json.usage.inputTokens ?? 0) + (first.json.usage.outputTokens ?? 0);
    expect(used).toBeGreaterThan(5);
    const next = await s.request("POST", "/v1/chat", { requestId: "r2", threadId: "t", message: "again" });
    expect429(next);
    expect(next.json.error.message).toMatch(/Token budget/);
    // Other routes are not turns: they still answer.
    expect((await s.request("GET", "/v1/agency/counters")).status).toBe(200);
  });
});

describe("per-key concurrency limit", () => {
  it("answers 429 with Retry-After: 1 while the limit's requests hang, and recovers once they end", async () => {
    const upstream = await startScriptedUpstream({ fallback: () => ({ kind: "hang" }) });
    const provider = createOpenAiProvider({ baseUrl: upstream.url, model: "m", timeoutMs: 600_000 });
    const s = await startTestServer({
      backend: "sqlite-memory",
      provider,
      env: { SOL_MAX_CONCURRENT_PER_KEY: "2" },
    });
    open.push(s);
    const aborts = [new AbortController(), new AbortController()];
    const hanging = aborts.map((abort, i) =>
      fetch(new URL("/v1/chat", s.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ requestId: `h${i}`, threadId: "t", message: "wait" }),
        signal: abort.signal,
      }).catch(() => null),
    );
    await waitUntil(() => upstream.requests.length >= 2);
    const refused = await s.request("GET", "/v1/agency/counters");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.json.error.code).toBe("budget_exceeded");
    for (const abort of aborts) abort.abort();
    await Promise.all(hanging);
    await waitUntil(async () => (await s.request("GET", "/v1/agency/counters")).status === 200);
    // The turns still wait on the upstream; ending it lets the server drain them on close.
    await upstream.close();
  });
});

/** Polls `check` until it holds (no timing is asserted; the test's own timeout bounds the wait). */
async function waitUntil(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A TCP proxy to a local port that a test can cut (every connection dropped, new ones refused). */
async function tcpProxy(port: number): Promise<{ url: string; cut: () => void; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let cutOff = false;
  const server = createServer((client) => {
    if (cutOff) {
      client.destroy();
      return;
    }
    const upstream = connect(port, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${address.port}`,
    cut: () => {
      cutOff = true;
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
