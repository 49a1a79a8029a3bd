import { describe, expect, it } from "vitest";
import { A, newAction } from "./actions.js";
import type { Harness } from "./harness.js";

/** The actions table as SQL holds it: what a damaged column reads back as. */
export function sqlActionContract(harness: Harness): void {
  describe("actions", () => {
    it("reads a damaged payload column as null instead of failing", async () => {
      const store = await harness.open();
      await store.actions.insert(newAction("dmg"));
      await store.db
        .updateTable("actions")
        .set({ payload: JSON.stringify("just a string") })
        .where("action_id", "=", "dmg")
        .execute();
      expect((await store.actions.get(A, "dmg"))?.payload).toBeNull();
    });
  });
}
