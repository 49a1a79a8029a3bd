import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ActionExecutionContext, isSolError, SolError } from "@solserver/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createCalendarExecutor,
  createExecutorRegistry,
  createReminderExecutor,
  createWebhookExecutor,
  openStore,
  runExecutor,
  type SqlSolStore,
} from "../../src/index.js";

const NOW = Date.parse("2026-01-01T08:00:00.000Z");
const ctx = (
  actionId: string,
  signal: AbortSignal = new AbortController().signal,
): ActionExecutionContext => ({
  tenantId: "t",
  threadId: "th",
  actionId,
  requestId: `req-${actionId}`,
  nowMs: NOW,
  signal,
});
let n = 0;
const ids = (prefix: string) => `${prefix}-${++n}`;

async function reason(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isSolError(error)) throw new Error(`expected a SolError, got ${String(error)}`);
  return error.message;
}

describe("reminder and calendar executors", () => {
  let store: SqlSolStore;
  beforeAll(async () => {
    store = await openStore("sqlite::memory:");
  });
  afterAll(async () => {
    await store.close();
  });

  it("create_reminder writes one row per action, normalising an ISO due time and keeping a raw phrase", async () => {
    const exec = createReminderExecutor({ reminders: store.reminders, ids });
    const iso = await exec.execute({ title: "call the bank", due: "2026-01-02T09:00:00+01:00" }, ctx("r1"));
    expect(iso).toEqual({ summary: "Reminder created: call the bank (due Fri 2 Jan 2026, 08:00 UTC)" });
    await exec.execute({ title: "call the bank", due: "2026-01-02T09:00:00+01:00" }, ctx("r1"));
    expect(await store.reminders.list("t")).toHaveLength(1);
    const raw = await exec.execute({ title: "water plants", due: "whenever it rains" }, ctx("r2"));
    expect(raw.summary).toBe("Reminder created: water plants (due whenever it rains)");
    expect(await store.reminders.getByAction("t", "r2")).toMatchObject({
      due: "whenever it rains",
      dueAt: null,
    });
    expect(await exec.findResult?.(ctx("r2"))).toEqual(raw);
    expect(await exec.findResult?.(ctx("none"))).toBeNull();
    expect(await reason(exec.execute({ due: "tomorrow" }, ctx("r3")))).toBe(
      "The reminder is missing a valid title.",
    );
    expect(await reason(exec.execute({ title: "x\u0000y" }, ctx("r4")))).toMatch(/NUL/);
  });

  it("create_calendar_event validates start and end and keeps all-day dates as dates", async () => {
    const exec = createCalendarExecutor({ calendar: store.calendar, ids });
    const timed = await exec.execute(
      {
        title: "Dentist",
        start: "2026-01-02T09:00:00+02:00",
        end: "2026-01-02T10:00:00+02:00",
        location: "Main St",
      },
      ctx("c1"),
    );
    expect(timed.summary).toBe("Event added: Dentist on 2026-01-02T07:00:00.000Z at Main St");
    await exec.execute({ title: "Holiday", start: "2026-01-05", end: "2026-01-06" }, ctx("c2"));
    expect(await store.calendar.getByAction("t", "c2")).toMatchObject({
      start: "2026-01-05",
      end: "2026-01-06",
    });
    expect(await reason(exec.execute({ title: "x", start: "next tuesday" }, ctx("c3")))).toBe(
      "The calendar event is missing a valid start.",
    );
    expect(
      await reason(exec.execute({ title: "x", start: "2026-01-05", end: "2026-01-05T10:00:00Z" }, ctx("c4"))),
    ).toBe("The calendar event is missing a valid end.");
    expect(
      await reason(
        exec.execute({ title: "x", start: "2026-01-05T10:00:00Z", end: "2026-01-05T09:00:00Z" }, ctx("c5")),
      ),
    ).toBe("The calendar event is missing a valid end.");
    expect(await store.calendar.list("t")).toHaveLength(2);
  });
});

describe("webhook executor", () => {
  let server: Server;
  let base: string;
  const received: { path: string; headers: IncomingMessage["headers"]; body: unknown }[] = [];
  let answer: { status: number; headers?: Record<string, string> } | "hang" = { status: 200 };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        received.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(body || "null") });
        if (answer === "hang") return;
        res.writeHead(answer.status, answer.headers ?? {}).end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    received.length = 0;
    answer = { status: 200 };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("POSTs the action id, thread and data to the configured URL with an idempotency key", async () => {
    const exec = createWebhookExecutor({ url: `${base}/hook` });
    const receipt = await exec.execute({ event: "done", count: 2 }, ctx("w1"));
    expect(receipt.summary).toBe(`Webhook delivered to ${new URL(base).host} (HTTP 200).`);
    expect(received).toEqual([
      {
        path: "/hook",
        headers: expect.objectContaining({ "content-type": "application/json", "idempotency-key": "w1" }),
        body: { action_id: "w1", thread_id: "th", data: { event: "done", count: 2 } },
      },
    ]);
  });

  it("sends to a payload URL only when its origin is allowlisted, and never follows redirects", async () => {
    const open = createWebhookExecutor({ url: `${base}/hook`, allowlist: [] });
    expect(await reason(open.execute({ url: "http://169.254.169.254/latest" }, ctx("w2")))).toBe(
      "The webhook URL is not on the allowlist (SOL_WEBHOOK_ALLOWLIST).",
    );
    expect(await reason(open.execute({ url: "file:///etc/passwd" }, ctx("w2b")))).toMatch(/allowlist/);
    // The configured URL, not every path of its host (README: otherwise only SOL_WEBHOOK_URL).
    expect(await reason(open.execute({ url: `${base}/admin/reset` }, ctx("w2c")))).toMatch(/allowlist/);
    expect(received).toEqual([]);
    await open.execute({ url: `${base}/hook` }, ctx("w2d"));
    expect(received.map((r) => r.path)).toEqual(["/hook"]);
    received.length = 0;
    const listed = createWebhookExecutor({ allowlist: [base] });
    await listed.execute({ url: `${base}/other`, note: "x" }, ctx("w3"));
    expect(received.map((r) => [r.path, r.body])).toEqual([
      ["/other", { action_id: "w3", thread_id: "th", data: { note: "x" } }],
    ]);
    answer = { status: 302, headers: { location: "http://169.254.169.254/" } };
    expect(await reason(listed.execute({ url: `${base}/moved` }, ctx("w4")))).toMatch(/answered HTTP 302/);
    expect(received).toHaveLength(2);
  });

  it("fails with a reason for an HTTP error, no configuration, or an unreachable host", async () => {
    answer = { status: 500 };
    expect(await reason(createWebhookExecutor({ url: base }).execute({}, ctx("w5")))).toMatch(
      /answered HTTP 500\.$/,
    );
    expect(await reason(createWebhookExecutor({}).execute({}, ctx("w6")))).toBe(
      "No webhook is configured (set SOL_WEBHOOK_URL).",
    );
    expect(
      await reason(createWebhookExecutor({ url: "http://127.0.0.1:9/" }).execute({}, ctx("w7"))),
    ).toMatch(/^Could not reach the webhook/);
  });

  it("is aborted by the gate's time limit and the run fails with a reason", async () => {
    answer = "hang";
    const outcome = await runExecutor(createWebhookExecutor({ url: base }), "webhook", {}, ctx("w8"), 200);
    expect(outcome).toEqual({ status: "failed", error: { reason: "The action did not finish within 1 s." } });
  });
});

describe("executor registry", () => {
  it("lets a later executor replace a built-in of the same kind and rejects malformed ones", () => {
    const first = { kind: "k", execute: async () => ({ summary: "first" }) };
    const second = { kind: "k", execute: async () => ({ summary: "second" }) };
    const registry = createExecutorRegistry([first, second, { kind: "z", execute: first.execute }]);
    expect(registry.get("k")).toBe(second);
    expect(registry.kinds()).toEqual(["k", "z"]);
    expect(registry.get("missing")).toBeUndefined();
    expect(() => createExecutorRegistry([{ kind: "", execute: first.execute }])).toThrow(/non-empty kind/);
  });

  it("an empty receipt still counts as done", async () => {
    const outcome = await runExecutor(
      { kind: "k", execute: async () => ({ summary: "   " }) },
      "k",
      {},
      ctx("e1"),
      1000,
    );
    expect(outcome).toEqual({ status: "succeeded", receipt: { summary: "Done." } });
  });

  it("clips a long receipt or failure reason without splitting an emoji (the store refuses half of one)", async () => {
    const emoji = "\u{1F600}";
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/;
    const done = await runExecutor(
      { kind: "k", execute: async () => ({ summary: emoji.repeat(300) }) },
      "k",
      {},
      ctx("e2"),
      1000,
    );
    expect(done.status).toBe("succeeded");
    const summary = done.status === "succeeded" ? done.receipt.summary : "";
    expect(summary.length).toBeLessThanOrEqual(500);
    expect(summary).not.toMatch(loneSurrogate);
    const failed = await runExecutor(
      {
        kind: "k",
        execute: async () => {
          throw new SolError("unavailable", emoji.repeat(300));
        },
      },
      "k",
      {},
      ctx("e3"),
      1000,
    );
    expect(failed.status).toBe("failed");
    const reason = failed.status === "failed" ? failed.error.reason : "";
    expect(reason.length).toBeLessThanOrEqual(300);
    expect(reason).not.toMatch(loneSurrogate);
  });
});
