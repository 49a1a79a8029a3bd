import type { Migration } from "./ddl.js";
import { v1Initial } from "./v1-initial.js";
import { v2MessageModeLabel } from "./v2-message-mode-label.js";
import { v3Actions } from "./v3-actions.js";
import { v4RemindersCalendar } from "./v4-reminders-calendar.js";
import { v5CheckpointSessions } from "./v5-checkpoint-sessions.js";
import { v6AgencyTasksThoughts } from "./v6-agency-tasks-thoughts.js";
import { v7ThreadStats } from "./v7-thread-stats.js";
import { v8ThreadLastMode } from "./v8-thread-last-mode.js";
import { v9ThreadChurnDrift } from "./v9-thread-churn-drift.js";
import { v10ThreadDomainTags } from "./v10-thread-domain-tags.js";
import { v11PostgresJsonKeyOrder } from "./v11-postgres-json-key-order.js";
import { v12PostgresThreadStatsBigint } from "./v12-postgres-thread-stats-bigint.js";
import { v13Memories } from "./v13-memories.js";
import { v14Checkpoints } from "./v14-checkpoints.js";
import { v15PinnedContexts } from "./v15-pinned-contexts.js";
import { v16DriverBlocks } from "./v16-driver-blocks.js";
import { v17TransmissionLeases } from "./v17-transmission-leases.js";
import { v18AgencyState } from "./v18-agency-state.js";
import { v19Integrity } from "./v19-integrity.js";
import { v20MementoRecencyIndex } from "./v20-memento-recency-index.js";
import { v21MemoryIndex } from "./v21-memory-index.js";
import { v22MementoArcs } from "./v22-memento-arcs.js";
import { v23PostgresMemoryIndex } from "./v23-postgres-memory-index.js";
import { v24PostgresTraceAnchor } from "./v24-postgres-trace-anchor.js";

export type { Migration } from "./ddl.js";

/** Every migration in version order (1, 2, 3, ...); a schema change appends the next version here. */
export const MIGRATIONS: readonly Migration[] = Object.freeze([
  v1Initial,
  v2MessageModeLabel,
  v3Actions,
  v4RemindersCalendar,
  v5CheckpointSessions,
  v6AgencyTasksThoughts,
  v7ThreadStats,
  v8ThreadLastMode,
  v9ThreadChurnDrift,
  v10ThreadDomainTags,
  v11PostgresJsonKeyOrder,
  v12PostgresThreadStatsBigint,
  v13Memories,
  v14Checkpoints,
  v15PinnedContexts,
  v16DriverBlocks,
  v17TransmissionLeases,
  v18AgencyState,
  v19Integrity,
  v20MementoRecencyIndex,
  v21MemoryIndex,
  v22MementoArcs,
  v23PostgresMemoryIndex,
  v24PostgresTraceAnchor,
]);
