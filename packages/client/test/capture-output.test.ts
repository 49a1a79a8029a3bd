import { describe, expect, it } from "vitest";
import type { CaptureProcessor, SendChat } from "../src/index.js";
import { MemoryQueueStore, TransmissionQueue } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";

// A processor's output is stored with its capture; output the store cannot hold must fail that
// capture only, not stop every save (and with them every send) of the queue.

const echo: SendChat = async (packet) => fakeChatResponse(packet, 1);

async function runWith(output: unknown) {
  const store = new MemoryQueueStore();
  const processor = { process: async () => output } as unknown as CaptureProcessor;
  const errors: unknown[] = [];
  const queue = new TransmissionQueue({
    send: echo,
    store,
    captureProcessor: processor,
    backoff: { baseMs: 1, maxMs: 4 },
    onError: (err) => errors.push(err),
  });
  await queue.start();
  const sent = queue.enqueue({
    threadId: "t",
    message: "with a capture",
    attachments: [{ kind: "image", source: "a.png" }],
  });
  const outcome = queue.waitForCapture(sent.captureIds[0]!).catch((err: unknown) => err);
  const stalled = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("drain() did not finish: the queue could not save")), 2000),
  );
  try {
    await Promise.race([queue.drain(), stalled]);
  } finally {
    await queue.stop().catch(() => undefined);
  }
  return { queue, store, sent, outcome: await outcome, errors };
}

describe("capture processor output that cannot be stored", () => {
  for (const [name, output] of [
    ["data with a BigInt", { dataDescription: "big", data: { n: 10n } }],
    ["a number as dataDescription", { dataDescription: 5 }],
  ] as const) {
    it(`fails the capture (capture_failed) on ${name}; the message is still delivered and saved`, async () => {
      const { queue, store, sent, outcome, errors } = await runWith(output);
      expect(outcome).toMatchObject({ code: "capture_failed" });
      expect(queue.getCapture(sent.captureIds[0]!)).toMatchObject({
        status: "failed",
        error: { code: "capture_failed" },
      });
      expect(queue.getTransmission(sent.transmissionId)?.status).toBe("succeeded");
      expect(errors).toEqual([]);
      const reloaded = new TransmissionQueue({ send: echo, store });
      await reloaded.load();
      expect(reloaded.getTransmission(sent.transmissionId)?.status).toBe("succeeded");
    });
  }
});
