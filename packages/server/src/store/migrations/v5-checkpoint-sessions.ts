import { jsonType, type Migration } from "./ddl.js";

/**
 * v5: CRA checkpoint sessions. `state` is the engine's CheckpointSessionState (fired keywords, action
 * counts, interval marks); `version` makes every update a compare-and-swap so instances sharing one
 * database serialise evaluations of a session. `last_request_id` / `last_result` remember the newest
 * chat turn's answer, so a failed turn re-run under the same requestId gets the same context again.
 */
export const v5CheckpointSessions: Migration = {
  version: 5,
  name: "checkpoint_sessions",
  async up(db, dialect) {
    await db.schema
      .createTable("checkpoint_sessions")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("session_id", "text", (c) => c.notNull())
      .addColumn("state", jsonType(dialect), (c) => c.notNull())
      .addColumn("version", "integer", (c) => c.notNull())
      .addColumn("last_request_id", "text")
      .addColumn("last_result", jsonType(dialect))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("checkpoint_sessions_pk", ["tenant_id", "session_id"])
      .execute();
  },
};
