import { describe, expect, it } from "vitest";
import type { SendChat } from "../src/index.js";
import { MemoryQueueStore, SolClientError, TransmissionQueue } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";
import { settle } from "./support/in-process-server.js";

// resume() ("connectivity is back", also the browser's online event and every page open of the web
// client) brings backed-off tries forward, but a server's Retry-After is a floor: never sooner.

function busyOnce(retryAfterMs: number | undefined) {
  const calls: number[] = [];
  const send: SendChat = async (packet) => {
    calls.push(Date.now());
    if (calls.length === 1) {
      throw new SolClientError("unavailable", "busy", {
        status: 503,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    return fakeChatResponse(packet, 1);
  };
  return { send, calls };
}

async function queueWith(send: SendChat) {
  const store = new MemoryQueueStore();
  const queue = new TransmissionQueue({ send, store, backoff: { baseMs: 60_000, maxMs: 60_000, jitter: 0 } });
  await queue.start();
  return { queue, store };
}

describe("TransmissionQueue.resume and Retry-After", () => {
  it("does not send before the server's Retry-After", async () => {
    const { send, calls } = busyOnce(60_000);
    const { queue } = await queueWith(send);
    const { transmissionId } = queue.enqueue({ threadId: "t", message: "m" });
    await settle(20);
    expect(queue.getTransmission(transmissionId)).toMatchObject({
      status: "queued",
      lastError: { code: "unavailable", retryAfterMs: 60_000 },
    });
    await queue.resume();
    await settle(50);
    expect(calls).toHaveLength(1);
    expect(queue.getTransmission(transmissionId)?.nextAttemptAt).toBeGreaterThan(Date.now() + 50_000);
    await queue.stop();
  });

  it("still brings a backoff without Retry-After forward to now", async () => {
    const { send, calls } = busyOnce(undefined);
    const { queue } = await queueWith(send);
    const { transmissionId } = queue.enqueue({ threadId: "t", message: "m" });
    await settle(20);
    await queue.resume();
    await settle(50);
    expect(calls).toHaveLength(2);
    expect(queue.getTransmission(transmissionId)?.status).toBe("succeeded");
    await queue.stop();
  });

  it("keeps the Retry-After floor across a restart", async () => {
    const { send, calls } = busyOnce(60_000);
    const { queue, store } = await queueWith(send);
    queue.enqueue({ threadId: "t", message: "m" });
    await settle(20);
    await queue.stop();
    const again = new TransmissionQueue({ send, store });
    await again.start();
    await again.resume();
    await settle(50);
    expect(calls).toHaveLength(1);
    await again.stop();
  });
});
