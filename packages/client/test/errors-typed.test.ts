import { describe, expect, it } from "vitest";
import type { SendChat } from "../src/index.js";
import {
  IndexedDbQueueStore,
  isSolClientError,
  MemoryQueueStore,
  SolClient,
  TransmissionQueue,
} from "../src/index.js";
import { FileQueueStore } from "../src/node/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";

// README: "Every failure is a SolClientError (a core SolError)", with the SDK-side codes
// (invalid_input, aborted, capture_failed...). The queue and stores are part of that promise.

const echo: SendChat = async (packet) => fakeChatResponse(packet, 1);

async function caught(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

function expectTyped(err: unknown, code: string) {
  expect(err).toMatchObject({ code, retryable: false });
  expect(isSolClientError(err)).toBe(true);
}

describe("every SDK failure is a SolClientError", () => {
  it("options of SolClient, TransmissionQueue and FileQueueStore", async () => {
    expectTyped(await caught(() => new SolClient({ baseUrl: "ftp://x" })), "invalid_input");
    expectTyped(
      await caught(() => new TransmissionQueue({ store: new MemoryQueueStore() })),
      "invalid_input",
    );
    expectTyped(await caught(() => new FileQueueStore({ path: "" })), "invalid_input");
  });

  it("queue calls: enqueue, retry, drain, stop", async () => {
    const queue = new TransmissionQueue({ send: echo, store: new MemoryQueueStore() });
    expectTyped(await caught(() => queue.enqueue({ threadId: "t", message: "m" })), "invalid_transition");
    expectTyped(await caught(() => queue.drain()), "invalid_transition");
    await queue.start();
    expectTyped(await caught(() => queue.enqueue({ threadId: "t", message: "" })), "invalid_input");
    queue.enqueue({ threadId: "t", message: "m", requestId: "r1" });
    expectTyped(
      await caught(() => queue.enqueue({ threadId: "t", message: "n", requestId: "r1" })),
      "idempotency_conflict",
    );
    expectTyped(await caught(() => queue.retry("nope")), "not_found");
    await queue.drain();
    const [sent] = queue.listTransmissions();
    expectTyped(await caught(() => queue.retry(sent!.transmissionId)), "invalid_transition");
    const never = new TransmissionQueue({ send: () => new Promise(() => {}), store: new MemoryQueueStore() });
    await never.start();
    never.enqueue({ threadId: "t", message: "m" });
    const draining = caught(() => never.drain());
    await never.stop();
    expectTyped(await draining, "aborted");
    await queue.stop();
  });

  it("captures: failed, unknown, aborted wait", async () => {
    const queue = new TransmissionQueue({
      send: echo,
      store: new MemoryQueueStore(),
      captureProcessor: { kinds: ["bad"], process: async () => Promise.reject(new Error("unreadable")) },
    });
    await queue.start();
    const { captureIds } = queue.enqueue({
      threadId: "t",
      message: "m",
      attachments: [
        { kind: "bad", source: "a" },
        { kind: "none", source: "b" },
      ],
    });
    expectTyped(await caught(() => queue.waitForCapture(captureIds[0]!)), "capture_failed");
    expectTyped(await caught(() => queue.waitForCapture("nope")), "not_found");
    expectTyped(await caught(() => queue.retryCapture(captureIds[1]!)), "invalid_transition");
    const controller = new AbortController();
    const waiting = caught(() => queue.waitForCapture(captureIds[1]!, { signal: controller.signal }));
    controller.abort();
    expectTyped(await waiting, "aborted");
    await queue.stop();
  });

  it("stores: an unreadable snapshot, no IndexedDB", async () => {
    expectTyped(await caught(() => new MemoryQueueStore({ formatVersion: 1 }).load()), "invalid_input");
    expectTyped(await caught(() => new IndexedDbQueueStore({}).load()), "unavailable");
  });
});
