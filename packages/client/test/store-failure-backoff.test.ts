import { describe, expect, it } from "vitest";
import type { QueueSnapshot, QueueStore, SendChat } from "../src/index.js";
import { TransmissionQueue } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";
import { settle } from "./support/in-process-server.js";

// A try starts only once the transmission is durable; while the store keeps failing (disk full,
// storage quota) the queue must back off like any other retry, not try twice a second forever.

class FailingStore implements QueueStore {
  failing = true;
  saves = 0;
  async load() {
    return null;
  }
  async save(_snapshot: QueueSnapshot) {
    this.saves += 1;
    if (this.failing) throw new Error("ENOSPC: no space left on device");
  }
}

describe("TransmissionQueue while its store fails", () => {
  it("backs off exponentially, then sends once saving works again", async () => {
    const store = new FailingStore();
    const sent: string[] = [];
    const send: SendChat = async (packet) => {
      sent.push(packet.requestId);
      return fakeChatResponse(packet, 1);
    };
    const queue = new TransmissionQueue({
      send,
      store,
      backoff: { baseMs: 40, maxMs: 10_000, factor: 2, jitter: 0 },
      onError: () => undefined,
    });
    await queue.start();
    const { transmissionId } = queue.enqueue({ threadId: "t", message: "m" });
    await settle(700);
    // 40, 80, 160, 320 ms: four or five tries in 700 ms, not one every 40 ms (seventeen).
    const tries = queue.getTransmission(transmissionId)!.deliveryAttempts.length;
    expect(tries).toBeGreaterThanOrEqual(3);
    expect(tries).toBeLessThanOrEqual(5);
    expect(sent).toEqual([]);
    store.failing = false;
    await queue.resume();
    await queue.drain();
    expect(sent).toHaveLength(1);
    expect(queue.getTransmission(transmissionId)?.status).toBe("succeeded");
    await queue.stop();
  });
});
