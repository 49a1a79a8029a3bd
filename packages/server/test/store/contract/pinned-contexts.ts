import type { PinnedContextPut, PinnedContextStore } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { T0 } from "../support/samples.js";

const A = "tenant-a";
const B = "tenant-b";
const LATER = "2025-03-02T08:30:00.000Z";

const put = (overrides: Partial<PinnedContextPut> = {}): PinnedContextPut => ({
  tenantId: A,
  pinnedContextId: "pin-1",
  hash: "hash-1",
  content: "House rules: answer in French.",
  now: T0,
  ...overrides,
});

/** PinnedContextStore: versions by content hash, every version readable, per tenant, deletable. */
export function pinnedContextStoreContract(
  open: () => Promise<{ readonly pinnedContexts: PinnedContextStore }>,
): void {
  describe("pinned contexts", () => {
    it("goes none → created → updated, keeping the version when the hash is unchanged", async () => {
      const { pinnedContexts } = await open();
      expect(await pinnedContexts.get(A, "pin-1")).toBeNull();
      const created = await pinnedContexts.put(put());
      expect(created).toEqual({
        outcome: "created",
        pinnedContext: {
          tenantId: A,
          pinnedContextId: "pin-1",
          version: 1,
          hash: "hash-1",
          content: "House rules: answer in French.",
          createdAt: T0,
        },
      });
      expect(await pinnedContexts.put(put({ now: LATER }))).toEqual({
        outcome: "unchanged",
        pinnedContext: created.pinnedContext,
      });
      const updated = await pinnedContexts.put(put({ hash: "hash-2", content: "v2", now: LATER }));
      expect(updated.outcome).toBe("updated");
      expect(updated.pinnedContext).toMatchObject({ version: 2, hash: "hash-2", content: "v2" });
      expect(await pinnedContexts.get(A, "pin-1")).toEqual(updated.pinnedContext);
      expect(await pinnedContexts.get(A, "pin-1", 1)).toEqual(created.pinnedContext);
      expect(await pinnedContexts.get(A, "pin-1", 3)).toBeNull();
    });

    it("keeps tenants apart and deletes every version of one id", async () => {
      const { pinnedContexts } = await open();
      await pinnedContexts.put(put());
      await pinnedContexts.put(put({ hash: "hash-2" }));
      await pinnedContexts.put(put({ pinnedContextId: "pin-2" }));
      await pinnedContexts.put(put({ tenantId: B, content: "B's" }));
      expect((await pinnedContexts.get(B, "pin-1"))?.content).toBe("B's");
      expect(await pinnedContexts.get(B, "pin-2")).toBeNull();
      expect(await pinnedContexts.delete(A, "pin-1")).toBe(2);
      expect(await pinnedContexts.get(A, "pin-1", 1)).toBeNull();
      expect(await pinnedContexts.get(A, "pin-2")).not.toBeNull();
      expect(await pinnedContexts.get(B, "pin-1")).not.toBeNull();
      expect(await pinnedContexts.delete(A, "pin-1")).toBe(0);
    });
  });
}
