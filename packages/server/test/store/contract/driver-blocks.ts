import type { DriverBlock, DriverBlockPut, DriverBlockStore } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { T0 } from "../support/samples.js";

const A = "tenant-a";
const B = "tenant-b";
const LATER = "2025-03-02T08:30:00.000Z";

const block = (overrides: Partial<DriverBlock> = {}): DriverBlock => ({
  id: "end-with-summary",
  version: 1,
  scope: "user",
  enforcement: "strict",
  promptConstraints: ["End every reply with a Summary section."],
  outputContract: { requiredSections: ["Summary"] },
  ...overrides,
});

const put = (overrides: Partial<DriverBlockPut> = {}): DriverBlockPut => ({
  tenantId: A,
  blockId: "end-with-summary",
  hash: "hash-1",
  block: block(),
  now: T0,
  ...overrides,
});

/** DriverBlockStore: versions by hash, the latest per id, an enabled switch, per tenant, deletable. */
export function driverBlockStoreContract(
  open: () => Promise<{ readonly driverBlocks: DriverBlockStore }>,
): void {
  describe("driver blocks", () => {
    it("goes none → created → updated, the store setting the version, unchanged on the same hash", async () => {
      const { driverBlocks } = await open();
      expect(await driverBlocks.get(A, "end-with-summary")).toBeNull();
      const created = await driverBlocks.put(put({ block: block({ version: "7" }) }));
      expect(created).toEqual({
        outcome: "created",
        driverBlock: {
          tenantId: A,
          blockId: "end-with-summary",
          version: 1,
          hash: "hash-1",
          block: block({ version: 1 }),
          enabled: true,
          createdAt: T0,
          updatedAt: T0,
        },
      });
      expect(await driverBlocks.put(put({ now: LATER }))).toEqual({
        outcome: "unchanged",
        driverBlock: created.driverBlock,
      });
      const updated = await driverBlocks.put(
        put({ hash: "hash-2", block: block({ title: "Summaries" }), now: LATER }),
      );
      expect(updated.outcome).toBe("updated");
      expect(updated.driverBlock).toMatchObject({ version: 2, hash: "hash-2", enabled: true });
      expect(updated.driverBlock.block).toEqual(block({ title: "Summaries", version: 2 }));
      expect(await driverBlocks.get(A, "end-with-summary")).toEqual(updated.driverBlock);
      expect(await driverBlocks.list(A)).toEqual([updated.driverBlock]);
    });

    it("switches an id off and on; approving it again turns it back on", async () => {
      const { driverBlocks } = await open();
      await driverBlocks.put(put());
      const off = await driverBlocks.setEnabled(A, "end-with-summary", false, LATER);
      expect(off).toMatchObject({ enabled: false, version: 1, updatedAt: LATER });
      expect((await driverBlocks.list(A))[0]?.enabled).toBe(false);
      expect(await driverBlocks.setEnabled(A, "nope", false, LATER)).toBeNull();
      const again = await driverBlocks.put(put({ now: LATER }));
      expect(again).toMatchObject({ outcome: "unchanged", driverBlock: { enabled: true, version: 1 } });
      await driverBlocks.setEnabled(A, "end-with-summary", false, LATER);
      const newer = await driverBlocks.put(put({ hash: "hash-2", now: LATER }));
      expect(newer.driverBlock).toMatchObject({ version: 2, enabled: true });
      expect(await driverBlocks.get(A, "end-with-summary")).toMatchObject({ version: 2, enabled: true });
    });

    it("keeps tenants apart, lists ids in order and deletes every version of one id", async () => {
      const { driverBlocks } = await open();
      await driverBlocks.put(put({ blockId: "zz", block: block({ id: "zz" }) }));
      await driverBlocks.put(put());
      await driverBlocks.put(put({ hash: "hash-2" }));
      await driverBlocks.put(put({ tenantId: B }));
      expect((await driverBlocks.list(A)).map((b) => [b.blockId, b.version])).toEqual([
        ["end-with-summary", 2],
        ["zz", 1],
      ]);
      expect(await driverBlocks.setEnabled(B, "zz", false, LATER)).toBeNull();
      expect(await driverBlocks.delete(B, "zz")).toBe(0);
      expect(await driverBlocks.delete(A, "end-with-summary")).toBe(2);
      expect(await driverBlocks.get(A, "end-with-summary")).toBeNull();
      expect((await driverBlocks.list(A)).map((b) => b.blockId)).toEqual(["zz"]);
      expect(await driverBlocks.get(B, "end-with-summary")).not.toBeNull();
      expect(await driverBlocks.delete(A, "end-with-summary")).toBe(0);
      expect(await driverBlocks.get(A, "bad\u0000id")).toBeNull();
    });
  });
}
