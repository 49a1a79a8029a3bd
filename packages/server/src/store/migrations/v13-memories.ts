import type { Migration } from "./ddl.js";

/**
 * Placeholder for H8's v13 (memories), so that v14 keeps the version sequence on this branch alone.
 * At merge, H8's v13-memories.ts replaces this file whole.
 */
export const v13Memories: Migration = {
  version: 13,
  name: "memories",
  async up() {},
};
