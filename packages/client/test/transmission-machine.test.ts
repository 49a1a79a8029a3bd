import { Transmission, TransmissionStatus } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { QueuedTransmission, TransmissionEvent } from "../src/index.js";
import { INTERRUPTED_ERROR_CODE, transition } from "../src/index.js";

const MAX_ATTEMPTS = 3;
const T0 = Date.parse("2025-01-01T00:00:00.000Z");

function fresh(): QueuedTransmission {
  return {
    transmissionId: "tx-1",
    type: "chat",
    requestId: "req-1",
    status: "queued",
    deliveryAttempts: [],
    threadId: "t1",
    localMessageId: "m1",
    packet: { requestId: "req-1", threadId: "t1", message: "hi" },
    seq: 0,
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    failuresInRound: 0,
    nextAttemptAt: null,
    lastError: null,
  };
}

function step(state: QueuedTransmission, event: TransmissionEvent): QueuedTransmission {
  const result = transition(state, event);
  if (!result.ok) throw new Error(result.issues[0]?.message);
  return result.value;
}

const fail = (at: number, retryable: boolean, retryDelayMs = 100): TransmissionEvent => ({
  type: "fail",
  at,
  error: { code: retryable ? "unavailable" : "invalid_input", message: "x" },
  retryable,
  maxAttempts: MAX_ATTEMPTS,
  retryDelayMs,
});

describe("transition (examples)", () => {
  it("queued -> sending -> succeeded closes the attempt with its latency", () => {
    let t = step(fresh(), { type: "send", at: T0, attemptId: "a1" });
    expect(t.status).toBe("sending");
    expect(t.deliveryAttempts).toEqual([
      { attemptId: "a1", transmissionId: "tx-1", status: "sending", startedAt: new Date(T0).toISOString() },
    ]);
    t = step(t, { type: "succeed", at: T0 + 42 });
    expect(t.status).toBe("succeeded");
    expect(t.deliveryAttempts[0]).toMatchObject({ status: "succeeded", latencyMs: 42 });
    expect(transition(t, { type: "send", at: T0 + 50, attemptId: "a2" }).ok).toBe(false);
  });

  it("a retryable failure queues again after the delay; a 4xx-like one fails at once", () => {
    let t = step(step(fresh(), { type: "send", at: T0, attemptId: "a1" }), fail(T0 + 10, true, 500));
    expect(t).toMatchObject({ status: "queued", failuresInRound: 1, nextAttemptAt: T0 + 510 });
    expect(t.deliveryAttempts[0]).toMatchObject({ status: "failed", errorCode: "unavailable" });
    expect(transition(t, { type: "send", at: T0 + 509, attemptId: "a2" }).ok).toBe(false);
    t = step(t, { type: "send", at: T0 + 510, attemptId: "a2" });
    t = step(t, fail(T0 + 520, false));
    expect(t).toMatchObject({ status: "failed", nextAttemptAt: null, lastError: { code: "invalid_input" } });
  });

  it("fails after maxAttempts retryable failures; a manual retry gives a fresh budget", () => {
    let t = fresh();
    let at = T0;
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
      at = (t.nextAttemptAt ?? at) + 1;
      t = step(step(t, { type: "send", at, attemptId: `a${i}` }), fail(at, true, 0));
    }
    expect(t.status).toBe("failed");
    expect(t.deliveryAttempts).toHaveLength(MAX_ATTEMPTS);
    t = step(t, { type: "retry", at: at + 1 });
    expect(t).toMatchObject({ status: "queued", failuresInRound: 0, lastError: null });
    expect(t.deliveryAttempts).toHaveLength(MAX_ATTEMPTS);
  });

  it("an interrupted try goes back to queued without spending an attempt", () => {
    const t = step(step(fresh(), { type: "send", at: T0, attemptId: "a1" }), {
      type: "interrupt",
      at: T0 + 5,
    });
    expect(t).toMatchObject({
      status: "queued",
      failuresInRound: 0,
      nextAttemptAt: T0 + 5,
      requestId: "req-1",
    });
    expect(t.deliveryAttempts[0]).toMatchObject({ status: "failed", errorCode: INTERRUPTED_ERROR_CODE });
  });

  it("wake brings a backed-off try forward to now and keeps the attempt count; only from queued", () => {
    const sent = step(fresh(), { type: "send", at: T0, attemptId: "a1" });
    const waiting = step(sent, fail(T0 + 10, true, 60_000));
    expect(waiting).toMatchObject({ status: "queued", nextAttemptAt: T0 + 60_010, failuresInRound: 1 });
    const woken = step(waiting, { type: "wake", at: T0 + 20 });
    expect(woken).toMatchObject({ status: "queued", nextAttemptAt: T0 + 20, failuresInRound: 1 });
    // Already due: nothing to bring forward.
    expect(step(woken, { type: "wake", at: T0 + 30 })).toEqual(woken);
    expect(transition(sent, { type: "wake", at: T0 }).ok).toBe(false);
  });

  it("rejects events the status does not allow", () => {
    const queued = fresh();
    for (const event of [
      { type: "succeed", at: T0 },
      fail(T0, true),
      { type: "interrupt", at: T0 },
      { type: "retry", at: T0 },
    ] as TransmissionEvent[]) {
      const result = transition(queued, event);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.issues[0]?.code).toBe("invalid_transition");
    }
  });
});

const eventArb: fc.Arbitrary<(at: number, n: number) => TransmissionEvent> = fc.oneof(
  fc.constant((at: number, n: number): TransmissionEvent => ({ type: "send", at, attemptId: `a${n}` })),
  fc.constant((at: number): TransmissionEvent => ({ type: "send", at, attemptId: "a0" })),
  fc.constant((at: number): TransmissionEvent => ({ type: "succeed", at })),
  fc.record({ retryable: fc.boolean(), delay: fc.integer({ min: 0, max: 1_000 }) }).map(
    ({ retryable, delay }) =>
      (at: number) =>
        fail(at, retryable, delay),
  ),
  fc.constant((at: number): TransmissionEvent => ({ type: "interrupt", at })),
  fc.constant((at: number): TransmissionEvent => ({ type: "retry", at })),
  fc.constant((at: number): TransmissionEvent => ({ type: "wake", at })),
  fc.constant((at: number): TransmissionEvent => ({ type: "rebase", at: at - 3_600_000 })),
);

const coreFields = (t: QueuedTransmission) =>
  Object.fromEntries(
    Object.keys(Transmission.shape).flatMap((k) => (k in t ? [[k, t[k as keyof typeof t]]] : [])),
  );

describe("transition (properties)", () => {
  it("no event sequence leaves an undefined state or sends after success", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(eventArb, fc.integer({ min: 0, max: 600 })), { maxLength: 60 }),
        (steps) => {
          let state = fresh();
          let at = T0;
          let succeededAttempts = 0;
          steps.forEach(([make, delta], n) => {
            at += delta;
            const event = make(at, n + 1);
            const result = transition(state, event);
            if (state.status === "succeeded") expect(result.ok).toBe(false);
            if (!result.ok) {
              expect(result.issues[0]?.code).toBe("invalid_transition");
              return;
            }
            const next = result.value;
            // Identity and the idempotency key never change.
            expect(next.requestId).toBe("req-1");
            expect(next.transmissionId).toBe("tx-1");
            expect(next.packet).toBe(state.packet);
            // Always a valid core Transmission in one of the four statuses.
            expect(TransmissionStatus.options).toContain(next.status);
            expect(Transmission.safeParse(coreFields(next)).success).toBe(true);
            // Attempts only accumulate; only the last one may be open, and only while sending.
            expect(
              next.deliveryAttempts.slice(0, state.deliveryAttempts.length).map((a) => a.attemptId),
            ).toEqual(state.deliveryAttempts.map((a) => a.attemptId));
            const open = next.deliveryAttempts.filter((a) => a.status === "sending");
            expect(open.length).toBe(next.status === "sending" ? 1 : 0);
            if (next.status === "sending") expect(next.deliveryAttempts.at(-1)?.status).toBe("sending");
            expect(new Set(next.deliveryAttempts.map((a) => a.attemptId)).size).toBe(
              next.deliveryAttempts.length,
            );
            // A new try starts only from queued and only when due.
            if (next.deliveryAttempts.length > state.deliveryAttempts.length) {
              expect(state.status).toBe("queued");
              expect(at).toBeGreaterThanOrEqual(state.nextAttemptAt ?? at);
            }
            // The retry budget holds; a backoff time exists only while queued.
            expect(next.failuresInRound).toBeLessThanOrEqual(MAX_ATTEMPTS);
            if (next.status === "queued") expect(next.failuresInRound).toBeLessThan(MAX_ATTEMPTS);
            else expect(next.nextAttemptAt).toBeNull();
            succeededAttempts = next.deliveryAttempts.filter((a) => a.status === "succeeded").length;
            expect(succeededAttempts).toBe(next.status === "succeeded" ? 1 : 0);
            state = next;
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
