import { describe, expect, it } from "vitest";
import type { SendChat } from "../src/index.js";
import { MemoryQueueStore, TransmissionQueue } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";

// What enqueue accepts is stored at once and must load again after a restart: a record the store
// cannot read back makes it set the whole queue aside (every queued message with it).

const echo: SendChat = async (packet) => fakeChatResponse(packet, 1);

async function loadedQueue(store = new MemoryQueueStore()) {
  const queue = new TransmissionQueue({ send: echo, store });
  await queue.load();
  return { queue, store };
}

describe("TransmissionQueue.enqueue stores only what it can load again", () => {
  it("refuses an attachment whose source or kind is not storable, and stores nothing", async () => {
    const { queue, store } = await loadedQueue();
    const kept = queue.enqueue({ threadId: "t", message: "queued before" });
    await kept.persisted;
    const bad = [
      { kind: "image", source: undefined },
      { kind: "image", source: () => "file.png" },
      { kind: "image", source: { size: 10n } },
      { kind: "", source: "file.png" },
      { kind: 7 as unknown as string, source: "file.png" },
    ];
    for (const attachment of bad) {
      expect(() => queue.enqueue({ threadId: "t", message: "m", attachments: [attachment] })).toThrow(
        expect.objectContaining({ code: "invalid_input", message: expect.stringMatching(/attachments\.0/) }),
      );
    }
    expect(queue.listTransmissions()).toHaveLength(1);
    expect(queue.listMessages()).toHaveLength(1);
    const again = await loadedQueue(store);
    expect(again.queue.listTransmissions().map((t) => t.requestId)).toEqual([kept.requestId]);
  });

  it("refuses a packet that cannot be written as JSON (a BigInt in meta)", async () => {
    const { queue } = await loadedQueue();
    expect(() => queue.enqueue({ threadId: "t", message: "m", meta: { n: 1n } })).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
    expect(queue.listTransmissions()).toHaveLength(0);
  });

  it("a queue with a JSON attachment reloads it after a restart", async () => {
    const { queue, store } = await loadedQueue();
    const { persisted, captureIds } = queue.enqueue({
      threadId: "t",
      message: "m",
      attachments: [{ kind: "image", source: { uri: "file:///a.png", bytes: 10 } }],
    });
    await persisted;
    const again = await loadedQueue(store);
    expect(again.queue.getCapture(captureIds[0]!)).toMatchObject({ source: { uri: "file:///a.png" } });
  });
});
