import { describe, expect, it } from "vitest";
import type { QueuedTransmission, SendChat, TransmissionMachineState } from "../src/index.js";
import { MemoryQueueStore, SolClientError, TransmissionQueue, transition } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";
import { settle } from "./support/in-process-server.js";

// The queue plans retries on the wall clock (its `clock`), which can be set back (an NTP step, a
// user fixing a wrong date, a VM resumed). A retry planned 200 ms ahead must not wait for the clock
// to catch up with the hour it lost.

const HOUR = 3_600_000;

describe("TransmissionQueue when the clock goes back", () => {
  it("keeps a backoff at its planned length after the clock is set back an hour", async () => {
    let offset = 0;
    let calls = 0;
    const send: SendChat = async (packet) => {
      calls += 1;
      if (calls === 1) throw new SolClientError("network_error", "offline");
      return fakeChatResponse(packet, 1);
    };
    const queue = new TransmissionQueue({
      send,
      store: new MemoryQueueStore(),
      clock: { now: () => Date.now() + offset },
      backoff: { baseMs: 200, maxMs: 200, factor: 2, jitter: 0 },
    });
    await queue.start();
    const { transmissionId } = queue.enqueue({ threadId: "t", message: "hello" });
    await settle(20);
    expect(queue.getTransmission(transmissionId)).toMatchObject({ status: "queued", failuresInRound: 1 });
    offset = -HOUR;
    await settle(600);
    expect(queue.getTransmission(transmissionId)?.status).toBe("succeeded");
    await queue.stop();
  });

  it("after a restart, a retry stamped in the future waits its planned delay, not until that time", async () => {
    const seed = new TransmissionQueue({
      send: async (p) => fakeChatResponse(p, 1),
      store: new MemoryQueueStore(),
    });
    await seed.load();
    seed.enqueue({ threadId: "t", message: "hello", requestId: "r1" });
    const [queued] = seed.snapshot().transmissions as QueuedTransmission[];
    // Saved by a process whose clock ran an hour ahead: failed once, retry planned 200 ms later.
    const ahead = Date.now() + HOUR;
    const stored = {
      ...seed.snapshot(),
      transmissions: [
        {
          ...queued!,
          failuresInRound: 1,
          updatedAt: new Date(ahead).toISOString(),
          nextAttemptAt: ahead + 200,
        },
      ],
    };
    const sent: string[] = [];
    const queue = new TransmissionQueue({
      send: async (packet) => {
        sent.push(packet.requestId);
        return fakeChatResponse(packet, 1);
      },
      store: new MemoryQueueStore(stored),
    });
    await queue.start();
    await settle(600);
    expect(sent).toEqual(["r1"]);
    await queue.stop();
  });

  it("rebase moves a plan stamped after `at` to `at` plus its planned delay; otherwise no change", () => {
    const base: Omit<TransmissionMachineState, "updatedAt" | "nextAttemptAt"> = {
      transmissionId: "tx",
      type: "chat",
      requestId: "r",
      status: "queued",
      deliveryAttempts: [],
      failuresInRound: 1,
      lastError: null,
    };
    const at = Date.parse("2025-01-01T00:00:00.000Z");
    const future = { ...base, updatedAt: new Date(at + HOUR).toISOString(), nextAttemptAt: at + HOUR + 500 };
    const moved = transition(future, { type: "rebase", at });
    expect(moved).toEqual({
      ok: true,
      value: { ...future, updatedAt: new Date(at).toISOString(), nextAttemptAt: at + 500 },
    });
    const past = { ...future, updatedAt: new Date(at - 10).toISOString(), nextAttemptAt: at + 490 };
    expect(transition(past, { type: "rebase", at })).toEqual({ ok: true, value: past });
    expect(transition({ ...future, status: "failed" }, { type: "rebase", at }).ok).toBe(false);
  });
});
