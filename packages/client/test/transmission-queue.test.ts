import { readFile } from "node:fs/promises";
import type { ChatResponse, PacketInputBody } from "@solserver/core";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { QueueChange, SendChat, TransmissionQueueOptions } from "../src/index.js";
import { MemoryQueueStore, SolClientError, TransmissionQueue } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";
import { deferred, inProcessServer, settle } from "./support/in-process-server.js";

const fast = { baseMs: 1, maxMs: 4, factor: 2, jitter: 0.5 };

function queueWith(send: SendChat, extra: Partial<TransmissionQueueOptions> = {}) {
  const store = extra.store ?? new MemoryQueueStore();
  const queue = new TransmissionQueue({ send, store, backoff: fast, maxAttempts: 5, ...extra });
  return { queue, store };
}

const echo: SendChat = async (packet) => fakeChatResponse(packet, 1);

afterEach(() => {
  vi.useRealTimers();
});

describe("TransmissionQueue enqueue", () => {
  it("creates the local message at once and persists the transmission with its requestId", async () => {
    const changes: QueueChange[] = [];
    const { queue, store } = queueWith(echo, { onChange: (c) => changes.push(c) });
    await queue.load();
    const result = queue.enqueue({ threadId: "t1", message: "hello" });
    expect(queue.listMessages("t1")).toEqual([
      expect.objectContaining({ messageId: result.localMessageId, role: "user", content: "hello" }),
    ]);
    expect(changes.map((c) => c.kind)).toEqual(["message", "transmission"]);
    await result.persisted;
    const saved = (await store.load())!;
    expect(saved.transmissions).toEqual([
      expect.objectContaining({
        transmissionId: result.transmissionId,
        requestId: result.requestId,
        status: "queued",
        packet: expect.objectContaining({ requestId: result.requestId, threadId: "t1", message: "hello" }),
      }),
    ]);
  });

  it("refuses bad input, a reused requestId, and enqueue before load", async () => {
    const { queue } = queueWith(echo);
    expect(() => queue.enqueue({ threadId: "t1", message: "x" })).toThrow(/load/);
    await queue.load();
    expect(() => queue.enqueue({ threadId: "t1", message: "" })).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
    queue.enqueue({ threadId: "t1", message: "x", requestId: "r1" });
    expect(() => queue.enqueue({ threadId: "t1", message: "y", requestId: "r1" })).toThrow(
      expect.objectContaining({ code: "idempotency_conflict" }),
    );
  });

  it("refuses invalid options", () => {
    const store = new MemoryQueueStore();
    expect(() => new TransmissionQueue({ store })).toThrow(/exactly one of client, send/);
    expect(() => new TransmissionQueue({ send: echo, store, maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => new TransmissionQueue({ send: echo, store, backoff: { jitter: 2 } })).toThrow(/jitter/);
  });
});

describe("TransmissionQueue delivery", () => {
  it("sends a thread's next message only after the previous settled; threads are independent", async () => {
    const gates = new Map<string, ReturnType<typeof deferred<ChatResponse>>>();
    const calls: string[] = [];
    const send: SendChat = (packet) => {
      calls.push(packet.message);
      const gate = deferred<ChatResponse>();
      gates.set(packet.message, gate);
      return gate.promise;
    };
    const { queue } = queueWith(send);
    await queue.start();
    for (const message of ["a1", "a2", "a3"]) queue.enqueue({ threadId: "A", message });
    queue.enqueue({ threadId: "B", message: "b1" });
    await settle();
    expect(calls.sort()).toEqual(["a1", "b1"]);
    let n = 0;
    const answer = (m: string, thread: string) =>
      gates
        .get(m)!
        .resolve(fakeChatResponse({ requestId: sentRequestId(queue, m), threadId: thread, message: m }, ++n));
    answer("b1", "B");
    await settle();
    expect(calls).toHaveLength(2);
    answer("a1", "A");
    await settle();
    expect(calls.at(-1)).toBe("a2");
    gates.get("a2")!.reject(new SolClientError("invalid_input", "no", { status: 400 }));
    await settle();
    expect(calls.at(-1)).toBe("a3");
    answer("a3", "A");
    await queue.drain();
    expect(queue.listTransmissions({ threadId: "A" }).map((t) => t.status)).toEqual([
      "succeeded",
      "failed",
      "succeeded",
    ]);
    expect(queue.listMessages("A").map((m) => `${m.role}:${m.content}`)).toEqual([
      "user:a1",
      "user:a2",
      "user:a3",
      "assistant:echo: a1",
      "assistant:echo: a3",
    ]);
    await queue.stop();
  });

  it("fails a 4xx at once with its code, and a manual retry resends the same requestId", async () => {
    let reject = true;
    const seen: string[] = [];
    const send: SendChat = async (packet) => {
      seen.push(packet.requestId);
      if (reject) throw new SolClientError("invalid_input", "bad", { status: 400 });
      return fakeChatResponse(packet, 1);
    };
    const { queue } = queueWith(send);
    await queue.start();
    const { transmissionId, requestId } = queue.enqueue({ threadId: "t", message: "m" });
    await queue.drain();
    const failed = queue.getTransmission(transmissionId)!;
    expect(failed).toMatchObject({ status: "failed", lastError: { code: "invalid_input", status: 400 } });
    expect(failed.deliveryAttempts).toEqual([
      expect.objectContaining({
        status: "failed",
        errorCode: "invalid_input",
        latencyMs: expect.any(Number),
      }),
    ]);
    reject = false;
    await queue.retry(transmissionId);
    await queue.drain();
    expect(queue.getTransmission(transmissionId)?.status).toBe("succeeded");
    expect(seen).toEqual([requestId, requestId]);
    await expect(queue.retry(transmissionId)).rejects.toMatchObject({ code: "invalid_transition" });
    await queue.stop();
  });

  it("retries network, 429 and 5xx failures, then gives up after maxAttempts", async () => {
    const errors = [
      new SolClientError("network_error", "down"),
      new SolClientError("budget_exceeded", "slow down", { status: 429 }),
      new SolClientError("unavailable", "busy", { status: 503 }),
    ];
    let n = 0;
    const { queue } = queueWith(
      async () => {
        throw errors[n++ % errors.length];
      },
      { maxAttempts: 4 },
    );
    await queue.start();
    const { transmissionId } = queue.enqueue({ threadId: "t", message: "m" });
    await queue.drain();
    const t = queue.getTransmission(transmissionId)!;
    expect(t.status).toBe("failed");
    expect(t.deliveryAttempts.map((a) => a.errorCode)).toEqual([
      "network_error",
      "budget_exceeded",
      "unavailable",
      "network_error",
    ]);
    await queue.stop();
  });

  it("resume() (connectivity back) retries network failures and wakes backed-off tries, same requestId", async () => {
    let online = false;
    const seen: string[] = [];
    const send: SendChat = async (packet) => {
      seen.push(packet.requestId);
      if (packet.message === "rejected") throw new SolClientError("invalid_input", "bad", { status: 400 });
      if (!online) throw new SolClientError("network_error", "offline");
      return fakeChatResponse(packet, 1);
    };
    // A long backoff: without resume() the second message would wait a minute.
    const { queue } = queueWith(send, {
      maxAttempts: 2,
      backoff: { baseMs: 60_000, maxMs: 60_000, jitter: 0 },
    });
    await queue.start();
    const lost = queue.enqueue({ threadId: "a", message: "sent while offline" });
    const bad = queue.enqueue({ threadId: "b", message: "rejected" });
    await settle();
    // The first try failed and waits out a minute's backoff; resume() tries again now, and that
    // second network failure spends the budget of 2.
    expect(queue.getTransmission(lost.transmissionId)).toMatchObject({ status: "queued" });
    await queue.resume();
    await settle();
    expect(queue.getTransmission(lost.transmissionId)).toMatchObject({
      status: "failed",
      lastError: { code: "network_error" },
    });
    online = true;
    await queue.resume();
    await queue.drain();
    expect(queue.getTransmission(lost.transmissionId)?.status).toBe("succeeded");
    expect(seen.filter((id) => id === lost.requestId)).toHaveLength(3);
    // A refusal by the server is not a connectivity problem: it stays failed until a manual retry.
    expect(queue.getTransmission(bad.transmissionId)?.status).toBe("failed");
    await queue.stop();
  });

  it("honours Retry-After before the next try", async () => {
    vi.useFakeTimers({ now: Date.parse("2025-01-01T00:00:00Z") });
    let calls = 0;
    const { queue } = queueWith(
      async (packet) => {
        calls += 1;
        if (calls === 1)
          throw new SolClientError("budget_exceeded", "wait", { status: 429, retryAfterMs: 5_000 });
        return fakeChatResponse(packet, 1);
      },
      { backoff: { ...fast, jitter: 0 } },
    );
    await queue.start();
    const { transmissionId } = queue.enqueue({ threadId: "t", message: "m" });
    await vi.advanceTimersByTimeAsync(0);
    const waiting = queue.getTransmission(transmissionId)!;
    expect(waiting.status).toBe("queued");
    expect(waiting.nextAttemptAt).toBe(Date.parse(waiting.deliveryAttempts[0]!.endedAt!) + 5_000);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getTransmission(transmissionId)?.status).toBe("succeeded");
    await queue.stop();
  });

  it("stop() aborts a try in flight; start() sends it again with the same requestId", async () => {
    const seen: PacketInputBody[] = [];
    let hang = true;
    const send: SendChat = (packet, { signal }) => {
      seen.push(packet);
      if (!hang) return Promise.resolve(fakeChatResponse(packet, 1));
      return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
    };
    const { queue, store } = queueWith(send);
    await queue.start();
    const { transmissionId } = queue.enqueue({ threadId: "t", message: "m" });
    await settle();
    await queue.stop();
    const stopped = (await store.load())!.transmissions[0]!;
    expect(stopped.status).toBe("queued");
    expect(stopped.deliveryAttempts.map((a) => a.errorCode)).toEqual(["interrupted"]);
    hang = false;
    await queue.start();
    await queue.drain();
    expect(queue.getTransmission(transmissionId)?.status).toBe("succeeded");
    expect(seen.map((p) => p.requestId)).toEqual([seen[0]!.requestId, seen[0]!.requestId]);
    expect(seen[1]).toEqual(seen[0]);
    await queue.stop();
  });

  it("drain() needs a started queue and is rejected by stop()", async () => {
    const { queue } = queueWith(() => new Promise(() => undefined));
    await expect(queue.drain()).rejects.toMatchObject({ code: "invalid_transition" });
    await queue.start();
    queue.enqueue({ threadId: "t", message: "m" });
    const draining = queue.drain();
    await settle();
    const stopping = queue.stop();
    await expect(draining).rejects.toMatchObject({ code: "aborted" });
    await stopping;
  });
});

describe("TransmissionQueue restart", () => {
  it("resumes the v1 fixture: the crashed send goes again with its requestId, failed ones stay", async () => {
    const raw = JSON.parse(await readFile(new URL("./fixtures/queue-v1.json", import.meta.url), "utf8"));
    const server = inProcessServer(() => "ok");
    const processed: string[] = [];
    const { queue } = queueWith(server.send, {
      store: new MemoryQueueStore(raw),
      captureProcessor: {
        process: async (capture) => {
          processed.push(capture.captureId);
          return { dataDescription: "the page" };
        },
      },
    });
    await queue.start();
    await queue.drain();
    expect(server.calls.map((c) => c.requestId).sort()).toEqual(["req_2", "req_4"]);
    const crashed = queue.getTransmission("tx_2")!;
    expect(crashed.status).toBe("succeeded");
    expect(crashed.deliveryAttempts.map((a) => a.errorCode ?? a.status)).toEqual([
      "interrupted",
      "succeeded",
    ]);
    expect(queue.getTransmission("tx_3")?.status).toBe("failed");
    expect(processed).toEqual(["cap_3"]);
    expect(queue.getCapture("cap_3")).toMatchObject({ status: "ready", dataDescription: "the page" });
    await queue.stop();
  });
});

describe("TransmissionQueue captures", () => {
  it("sends without waiting for captures; an action waits only for its capture", async () => {
    const gate = deferred<{ dataDescription: string }>();
    const server = inProcessServer(() => "ok");
    const { queue } = queueWith(server.send, {
      captureProcessor: { kinds: ["image"], process: () => gate.promise },
    });
    await queue.start();
    const { captureIds, requestId } = queue.enqueue({
      threadId: "t",
      message: "look",
      attachments: [
        { kind: "image", source: { uri: "file:///a.png" } },
        { kind: "audio", source: "memo.m4a" },
      ],
    });
    const imageReady = queue.waitForCapture(captureIds[0]!);
    await settle();
    expect(server.committed).toEqual([requestId]);
    expect(queue.getCapture(captureIds[0]!)?.status).toBe("pending");
    gate.resolve({ dataDescription: "a cat" });
    expect(await imageReady).toMatchObject({ status: "ready", dataDescription: "a cat" });
    // No processor handles audio: it stays pending and does not hold up drain().
    await queue.drain();
    expect(queue.getCapture(captureIds[1]!)?.status).toBe("pending");
    await queue.stop();
  });

  it("a failed capture rejects its waiters; a manual retry processes it again", async () => {
    let fail = true;
    const { queue } = queueWith(echo, {
      captureProcessor: {
        process: async () => {
          if (fail) throw new Error("unreadable");
          return { data: { ok: true } };
        },
      },
    });
    await queue.start();
    const [captureId] = queue.enqueue({
      threadId: "t",
      message: "m",
      attachments: [{ kind: "file", source: "x" }],
    }).captureIds;
    await expect(queue.waitForCapture(captureId!)).rejects.toMatchObject({ code: "capture_failed" });
    expect(queue.getCapture(captureId!)).toMatchObject({
      status: "failed",
      error: { message: "unreadable" },
    });
    fail = false;
    await queue.retryCapture(captureId!);
    expect(await queue.waitForCapture(captureId!)).toMatchObject({
      status: "ready",
      data: { ok: true },
      attempts: 2,
    });
    await expect(queue.waitForCapture("nope")).rejects.toMatchObject({ code: "not_found" });
    await queue.stop();
  });
});

describe("TransmissionQueue (property)", () => {
  it("delivers every message exactly once, in order per thread, whatever fails in between", async () => {
    const outcome = fc.constantFrom("ok", "drop-before", "drop-after") as fc.Arbitrary<
      "ok" | "drop-before" | "drop-after"
    >;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom("A", "B", "C"), fc.string({ minLength: 1, maxLength: 8 })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.array(outcome, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 3 }),
        async (messages, faults, concurrency) => {
          let k = 0;
          // The plan cycles through the generated outcomes but answers every 4th try, so all finish.
          const server = inProcessServer((_, attempt) =>
            attempt % 4 === 0 ? "ok" : faults[k++ % faults.length]!,
          );
          const { queue } = queueWith(server.send, {
            maxAttempts: 10,
            concurrency,
            backoff: { ...fast, baseMs: 0 },
          });
          await queue.start();
          const ids = messages.map(([threadId, message]) => ({
            threadId,
            ...queue.enqueue({ threadId, message }),
          }));
          await queue.drain();
          await queue.stop();
          expect(queue.listTransmissions().every((t) => t.status === "succeeded")).toBe(true);
          expect([...server.committed].sort()).toEqual(ids.map((i) => i.requestId).sort());
          expect(server.callsAfterSuccess).toEqual([]);
          for (const thread of ["A", "B", "C"]) {
            const expected = ids.filter((i) => i.threadId === thread).map((i) => i.requestId);
            expect(server.committed.filter((r) => expected.includes(r))).toEqual(expected);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

function sentRequestId(queue: TransmissionQueue, message: string): string {
  return queue.listTransmissions().find((t) => t.packet.message === message)!.requestId;
}
