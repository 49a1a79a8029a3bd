import { describe, expect, it } from "vitest";
import type { QueueSnapshot, QueueStore, SendChat } from "../src/index.js";
import { TransmissionQueue } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";

// IndexedDbQueueStore keeps the snapshot by structured clone, which refuses functions and DOM
// objects anywhere inside a value (DataCloneError), where JSON drops them. The queue stores values
// in their JSON form, so every store holds the same thing and can always save it.

/** A store that copies the way IndexedDB does. */
class CloningStore implements QueueStore {
  stored: QueueSnapshot | null = null;
  async load() {
    return this.stored === null ? null : structuredClone(this.stored);
  }
  async save(snapshot: QueueSnapshot) {
    this.stored = structuredClone(snapshot);
  }
}

const echo: SendChat = async (packet) => fakeChatResponse(packet, 1);

describe("a structured-clone store (IndexedDB) and values JSON would drop parts of", () => {
  it("saves an attachment source, a packet meta and processor data holding functions, in JSON form", async () => {
    const store = new CloningStore();
    const queue = new TransmissionQueue({
      send: echo,
      store,
      captureProcessor: { process: async () => ({ data: { width: 10, toString: () => "img" } }) },
    });
    await queue.start();
    const sent = queue.enqueue({
      threadId: "t",
      message: "m",
      meta: { app: "x", onSent: () => undefined },
      attachments: [{ kind: "image", source: { name: "a.png", onLoad: () => undefined } }],
    });
    await sent.persisted;
    await queue.drain();
    await queue.stop();
    expect(queue.getTransmission(sent.transmissionId)?.status).toBe("succeeded");
    expect(store.stored?.transmissions[0]?.packet.meta).toEqual({ app: "x" });
    expect(store.stored?.captures[0]).toMatchObject({
      source: { name: "a.png" },
      status: "ready",
      data: { width: 10 },
    });
    expect(store.stored?.captures[0]?.source).not.toHaveProperty("onLoad");
  });
});
