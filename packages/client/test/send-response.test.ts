import type { PacketInputBody } from "@solserver/core";
import { describe, expect, it } from "vitest";
import type { SendChat } from "../src/index.js";
import { MemoryQueueStore, TransmissionQueue } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";

// A custom `send` may return anything at run time; the queue stores the response of a succeeded
// transmission, and a stored record that breaks ChatResponse makes the next load refuse the queue.

async function deliverWith(send: SendChat) {
  const store = new MemoryQueueStore();
  const queue = new TransmissionQueue({ send, store, backoff: { baseMs: 1, maxMs: 4 }, maxAttempts: 2 });
  await queue.start();
  const bad = queue.enqueue({ threadId: "a", message: "answered badly" });
  await queue.drain();
  await queue.stop();
  return { queue, store, bad };
}

describe("TransmissionQueue checks what a custom send returns", () => {
  it("fails a response that breaks ChatResponse with invalid_response, at once, and still loads", async () => {
    const partial = (async (packet: PacketInputBody) => ({
      requestId: packet.requestId,
      threadId: packet.threadId,
      assistant: { messageId: "m1", content: "hi" },
    })) as unknown as SendChat;
    const { queue, store, bad } = await deliverWith(partial);
    expect(queue.getTransmission(bad.transmissionId)).toMatchObject({
      status: "failed",
      lastError: { code: "invalid_response" },
      deliveryAttempts: [expect.objectContaining({ errorCode: "invalid_response" })],
    });
    const reloaded = new TransmissionQueue({ send: partial, store });
    await reloaded.load();
    expect(reloaded.listTransmissions()).toHaveLength(1);
  });

  it("fails a send that resolves with nothing as invalid_response, not as a network error", async () => {
    const nothing = (async () => undefined) as unknown as SendChat;
    const { queue, bad } = await deliverWith(nothing);
    expect(queue.getTransmission(bad.transmissionId)).toMatchObject({
      status: "failed",
      lastError: { code: "invalid_response" },
    });
    expect(queue.getTransmission(bad.transmissionId)?.deliveryAttempts).toHaveLength(1);
  });

  it("keeps a valid response", async () => {
    const { queue, bad } = await deliverWith(async (packet) => fakeChatResponse(packet, 1));
    expect(queue.getTransmission(bad.transmissionId)).toMatchObject({
      status: "succeeded",
      response: { assistant: { content: "echo: answered badly" } },
    });
  });
});
