import type { Migration } from "./ddl.js";

/**
 * Placeholders for versions 17 and 18, which other branches claim: migrations must be numbered without
 * a gap, and this branch's integrity migration is 19. Replace both with the real ones when merging;
 * they change nothing, so a database that ran them only records their names.
 */
export const v17Reserved: Migration = { version: 17, name: "reserved_17", async up() {} };
/** See {@link v17Reserved}. */
export const v18Reserved: Migration = { version: 18, name: "reserved_18", async up() {} };
