import type { CheckpointSave, CheckpointStore } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { T0 } from "../support/samples.js";

const A = "tenant-a";
const B = "tenant-b";
const LATER = "2025-03-02T08:30:00.000Z";

const save = (overrides: Partial<CheckpointSave> = {}): CheckpointSave => ({
  tenantId: A,
  threadId: "th-1",
  newCheckpointId: "ckpt-1",
  contentHash: "hash-1",
  trigger: ["turn_interval"],
  capsule: "Checkpoint: arc moving; decisions: sell the house",
  now: T0,
  ...overrides,
});

/** CheckpointStore: none → created → updated, unchanged on the same hash, per tenant, deleted with its thread. */
export function checkpointStoreContract(
  open: () => Promise<{ readonly checkpoints: CheckpointStore }>,
): void {
  describe("checkpoints", () => {
    it("goes none → created → updated, and keeps the version when the hash is unchanged", async () => {
      const { checkpoints } = await open();
      expect(await checkpoints.latestForThread(A, "th-1")).toBeNull();
      const created = await checkpoints.save(save());
      expect(created.outcome).toBe("created");
      expect(created.checkpoint).toEqual({
        tenantId: A,
        threadId: "th-1",
        checkpointId: "ckpt-1",
        version: 1,
        contentHash: "hash-1",
        trigger: ["turn_interval"],
        capsule: "Checkpoint: arc moving; decisions: sell the house",
        createdAt: T0,
      });
      const same = await checkpoints.save(save({ newCheckpointId: "ignored", now: LATER }));
      expect(same).toEqual({ outcome: "unchanged", checkpoint: created.checkpoint });
      const updated = await checkpoints.save(
        save({
          newCheckpointId: "ignored",
          contentHash: "hash-2",
          capsule: "v2",
          trigger: ["reanchor"],
          now: LATER,
        }),
      );
      expect(updated.outcome).toBe("updated");
      expect(updated.checkpoint).toMatchObject({
        checkpointId: "ckpt-1",
        version: 2,
        capsule: "v2",
        trigger: ["reanchor"],
      });
      expect(await checkpoints.latestForThread(A, "th-1")).toEqual(updated.checkpoint);
    });

    it("reads the latest version of known ids in the order asked, per tenant", async () => {
      const { checkpoints } = await open();
      await checkpoints.save(save());
      await checkpoints.save(save({ contentHash: "hash-2", capsule: "v2" }));
      await checkpoints.save(save({ threadId: "th-2", newCheckpointId: "ckpt-2", capsule: "other" }));
      const got = await checkpoints.getLatest(A, ["ckpt-2", "nope", "ckpt-1"]);
      expect(got.map((c) => [c.checkpointId, c.version, c.capsule])).toEqual([
        ["ckpt-2", 1, "other"],
        ["ckpt-1", 2, "v2"],
      ]);
      expect(await checkpoints.getLatest(B, ["ckpt-1", "ckpt-2"])).toEqual([]);
      expect(await checkpoints.latestForThread(B, "th-1")).toBeNull();
    });

    it("deleteThreadCheckpoints removes every version of that thread only", async () => {
      const { checkpoints } = await open();
      await checkpoints.save(save());
      await checkpoints.save(save({ contentHash: "hash-2" }));
      await checkpoints.save(save({ threadId: "th-2", newCheckpointId: "ckpt-2" }));
      await checkpoints.save(save({ tenantId: B }));
      expect(await checkpoints.deleteThreadCheckpoints(A, "th-1")).toBe(2);
      expect(await checkpoints.latestForThread(A, "th-1")).toBeNull();
      expect(await checkpoints.getLatest(A, ["ckpt-1"])).toEqual([]);
      expect((await checkpoints.latestForThread(A, "th-2"))?.checkpointId).toBe("ckpt-2");
      expect((await checkpoints.latestForThread(B, "th-1"))?.version).toBe(1);
      expect(await checkpoints.deleteThreadCheckpoints(A, "th-1")).toBe(0);
    });
  });
}
