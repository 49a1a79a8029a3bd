import type { Migration } from "./ddl.js";

/**
 * v17: a lease on every transmission in flight. `lease_owner` is the delivery attempt that holds it
 * (the one that may commit the turn), `lease_expires_at` the ISO time it lapses unless the holder
 * renews it; a retry of the same requestId takes over only after that. Rows from before have no lease,
 * which reads as lapsed: only a process that died mid-turn can have left one `sending`.
 */
export const v17TransmissionLeases: Migration = {
  version: 17,
  name: "transmission_leases",
  async up(db) {
    await db.schema.alterTable("transmissions").addColumn("lease_owner", "text").execute();
    await db.schema.alterTable("transmissions").addColumn("lease_expires_at", "text").execute();
  },
};
