import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CaptureEvent, CaptureRecord } from "../src/index.js";
import { CAPTURE_STATUSES, transitionCapture } from "../src/index.js";

const T0 = Date.parse("2025-01-01T00:00:00.000Z");

const pending: CaptureRecord = {
  captureId: "c1",
  messageId: "m1",
  threadId: "t1",
  kind: "image",
  source: { uri: "file:///a.png" },
  status: "pending",
  attempts: 0,
  createdAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0).toISOString(),
};

const eventArb: fc.Arbitrary<CaptureEvent> = fc.oneof(
  fc
    .record({
      d: fc.option(fc.string(), { nil: undefined }),
      data: fc.option(fc.jsonValue(), { nil: undefined }),
    })
    .map(({ d, data }) => ({
      type: "processed" as const,
      at: T0,
      ...(d === undefined ? {} : { dataDescription: d }),
      ...(data === undefined ? {} : { data }),
    })),
  fc.constant<CaptureEvent>({
    type: "process_failed",
    at: T0,
    error: { code: "capture_failed", message: "bad" },
  }),
  fc.constant<CaptureEvent>({ type: "retry", at: T0 }),
);

describe("transitionCapture", () => {
  it("follows pending -> ready | failed and failed -> pending", () => {
    const ready = transitionCapture(pending, {
      type: "processed",
      at: T0 + 1,
      dataDescription: "a cat",
      data: 1,
    });
    expect(ready).toMatchObject({
      ok: true,
      value: { status: "ready", dataDescription: "a cat", data: 1, attempts: 1 },
    });
    const failed = transitionCapture(pending, {
      type: "process_failed",
      at: T0 + 1,
      error: { code: "x", message: "y" },
    });
    expect(failed).toMatchObject({ ok: true, value: { status: "failed", error: { code: "x" } } });
    if (!failed.ok) return;
    const again = transitionCapture(failed.value, { type: "retry", at: T0 + 2 });
    expect(again.ok && again.value.status).toBe("pending");
    expect(again.ok && "error" in again.value).toBe(false);
    expect(transitionCapture(pending, { type: "retry", at: T0 }).ok).toBe(false);
  });

  it("never reaches an undefined state; ready is final; data only when ready, error only when failed", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
        let state = pending;
        for (const event of events) {
          const result = transitionCapture(state, event);
          if (state.status === "ready") expect(result.ok).toBe(false);
          if (!result.ok) {
            expect(result.issues[0]?.code).toBe("invalid_transition");
            continue;
          }
          const next = result.value;
          expect(CAPTURE_STATUSES).toContain(next.status);
          expect(next.captureId).toBe("c1");
          expect(next.attempts).toBe(state.attempts + (event.type === "retry" ? 0 : 1));
          if (next.status !== "ready") expect("data" in next || "dataDescription" in next).toBe(false);
          expect("error" in next).toBe(next.status === "failed");
          state = next;
        }
      }),
      { numRuns: 500 },
    );
  });
});
