import { describe, expect, it } from "vitest";
import type { QueuedTransmission, QueueSnapshot } from "../src/index.js";
import {
  buildEnqueueRecords,
  emptySnapshot,
  mergeQueueSnapshots,
  migrateQueueSnapshot,
} from "../src/index.js";

let n = 0;
const ids = (prefix: string) => `${prefix}_${++n}`;

/** One enqueued message at `atMs`, as a snapshot of its own. */
function queued(message: string, atMs: number, requestId?: string): QueueSnapshot {
  const built = buildEnqueueRecords(
    { threadId: "t", message, ...(requestId ? { requestId } : {}) },
    n,
    atMs,
    ids,
  );
  if (!built.ok) throw new Error("bad fixture");
  const { message: local, captures, transmission } = built.value;
  return { ...emptySnapshot(), transmissions: [transmission], messages: [local], captures: [...captures] };
}

const both = (a: QueueSnapshot, b: QueueSnapshot): QueueSnapshot => ({
  ...emptySnapshot(),
  transmissions: [...a.transmissions, ...b.transmissions],
  messages: [...a.messages, ...b.messages],
  captures: [...a.captures, ...b.captures],
});

const withStatus = (snap: QueueSnapshot, status: QueuedTransmission["status"]): QueueSnapshot => ({
  ...snap,
  transmissions: snap.transmissions.map((t) => ({ ...t, status })),
});

describe("mergeQueueSnapshots", () => {
  it("keeps records only the stored side has, placed by creation time", () => {
    const early = queued("other tab, early", 1_000);
    const mine = queued("this tab", 2_000);
    const late = queued("other tab, late", 3_000);
    const merged = mergeQueueSnapshots(both(early, late), mine);
    expect(merged.messages.map((m) => m.content)).toEqual([
      "other tab, early",
      "this tab",
      "other tab, late",
    ]);
    expect(merged.transmissions).toHaveLength(3);
    expect(migrateQueueSnapshot(merged).ok).toBe(true);
  });

  it("lets the incoming record win, but never replaces a succeeded transmission by an earlier state", () => {
    const base = queued("shared", 1_000);
    expect(mergeQueueSnapshots(base, withStatus(base, "failed")).transmissions[0]?.status).toBe("failed");
    const done = withStatus(base, "succeeded");
    expect(mergeQueueSnapshots(done, withStatus(base, "sending")).transmissions[0]?.status).toBe("succeeded");
  });

  it("drops a stored transmission whose requestId an incoming one holds under another id", () => {
    const theirs = queued("their copy", 1_000, "req-shared");
    const mine = queued("my copy", 2_000, "req-shared");
    const merged = mergeQueueSnapshots(theirs, mine);
    expect(merged.transmissions.map((t) => t.packet.message)).toEqual(["my copy"]);
    expect(migrateQueueSnapshot(merged).ok).toBe(true);
  });

  it("changes nothing when the stored snapshot is this queue's previous save", () => {
    const first = queued("one", 1_000);
    const next = both(first, queued("two", 2_000));
    expect(mergeQueueSnapshots(first, next)).toEqual(next);
  });
});
