import type { Migration } from "./ddl.js";

/** v2: assistant messages remember their mode, so routing can use the thread's last modeLabel. */
export const v2MessageModeLabel: Migration = {
  version: 2,
  name: "messages_mode_label",
  async up(db) {
    await db.schema.alterTable("messages").addColumn("mode_label", "text").execute();
  },
};
