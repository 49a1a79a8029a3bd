import { describe, expect, it } from "vitest";
import type { SendChat } from "../src/index.js";
import { MemoryQueueStore, SolClientError, TransmissionQueue } from "../src/index.js";

// The error of a failed try is stored with its transmission; JSON turns NaN and Infinity into null,
// which the snapshot check then refuses, so only finite numbers may be recorded.

describe("the recorded error of a failed try", () => {
  it("keeps a queue loadable when a send's error carries a non-finite status or Retry-After", async () => {
    const store = new MemoryQueueStore();
    const errors = [
      new SolClientError("unavailable", "busy", { status: 503, retryAfterMs: Number.POSITIVE_INFINITY }),
      // A SolClientError from another copy of the SDK, recognised by its shape, with an empty code.
      { name: "SolClientError", code: "", message: "odd", retryable: true },
      new SolClientError("invalid_input", "odd", { status: Number.NaN, retryable: false }),
    ];
    let n = 0;
    const send: SendChat = async () => {
      throw errors[Math.min(n++, errors.length - 1)];
    };
    const queue = new TransmissionQueue({ send, store, backoff: { baseMs: 1, maxMs: 1 }, maxAttempts: 3 });
    await queue.start();
    const { transmissionId } = queue.enqueue({ threadId: "t", message: "m" });
    await queue.drain();
    await queue.stop();
    expect(queue.getTransmission(transmissionId)).toMatchObject({
      status: "failed",
      lastError: { code: "invalid_input" },
    });
    const reloaded = new TransmissionQueue({ send, store });
    await reloaded.load();
    expect(reloaded.getTransmission(transmissionId)?.status).toBe("failed");
  });
});
