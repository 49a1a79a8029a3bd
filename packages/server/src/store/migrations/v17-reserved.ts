import type { Migration } from "./ddl.js";

/**
 * v17: reserved for a parallel branch's migration (the agency state is v18). A no-op here so the
 * version sequence stays unbroken; the merge replaces this file with the real v17.
 */
export const v17Reserved: Migration = {
  version: 17,
  name: "reserved_v17",
  async up() {},
};
