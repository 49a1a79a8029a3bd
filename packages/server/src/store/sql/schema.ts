import type { Generated } from "kysely";

/**
 * Row shapes of every table, as Kysely sees them. JSON columns hold text in SQLite and json in
 * PostgreSQL, so their read type is `unknown` and `decodeJson` turns them back into values.
 * Timestamps are ISO-8601 text in both dialects so they round-trip unchanged.
 */
export interface MigrationsTable {
  version: number;
  name: string;
  applied_at: string;
}

export interface TransmissionsTable {
  tenant_id: string;
  transmission_id: string;
  request_id: string;
  thread_id: string;
  type: string;
  status: string;
  packet_id: string | null;
  body_hash: string;
  trace_run_id: string;
  created_at: string;
  updated_at: string;
  /** v17: the delivery attempt holding the lease, and when it lapses (ISO); null for no lease. */
  lease_owner: string | null;
  lease_expires_at: string | null;
}

export interface DeliveryAttemptsTable {
  /** Insertion order; bigint in PostgreSQL, so it may read back as a string. */
  id: Generated<number | string>;
  tenant_id: string;
  attempt_id: string;
  transmission_id: string;
  status: string;
  started_at: string;
  ended_at: string | null;
  error_code: string | null;
  latency_ms: number | null;
}

export interface MessagesTable {
  id: Generated<number | string>;
  tenant_id: string;
  thread_id: string;
  message_id: string;
  role: string;
  content: string;
  transmission_id: string | null;
  /** Added by migration 2; null for user messages and rows written before it. */
  mode_label: string | null;
  created_at: string;
}

/** Migration 7: messages per thread, maintained with every message insert. */
export interface ThreadStatsTable {
  tenant_id: string;
  thread_id: string;
  /** bigint in PostgreSQL (v12), so it may read back as a string; read it through `toNumber`. */
  message_count: number | string;
  /** Mode label of the thread's last assistant message that had one (v8). */
  last_mode_label: string | null;
  /** Estimated tokens exchanged since the last checkpoint capsule (v9). */
  churn_tokens: number | string;
  /** The last turn's TurnDrift as JSON text; null when none was recorded (v9). */
  last_drift: string | null;
  /** The thread's known domain tags, a JSON array of strings; null when none yet (v10). */
  domain_tags: string | null;
}

export interface MementosTable {
  tenant_id: string;
  thread_id: string;
  memento: unknown;
  version: number;
  turns_since_persist: number;
  created_at: string;
  updated_at: string;
  /** 1 when a client's PUT wrote the memento after the thread's last turn (v14). */
  changed_by_put: number;
  /** The memento's arc fields as one JSON array, taken from version `arc_version` (v22; null before). */
  arc: string | null;
  arc_version: number | null;
}

/** One version of a thread's checkpoint capsule (v14). */
export interface CheckpointsTable {
  tenant_id: string;
  thread_id: string;
  checkpoint_id: string;
  version: number;
  content_hash: string;
  /** The heartbeat reasons that triggered it, a JSON array of strings. */
  trigger: string;
  capsule: string;
  created_at: string;
}

/** One version of a pinned context's content (v15). */
export interface PinnedContextsTable {
  tenant_id: string;
  pinned_context_id: string;
  version: number;
  /** SHA-256 (hex) of the content. */
  hash: string;
  content: string;
  created_at: string;
}

/** One version of a runtime-created Driver Block (v16). */
export interface DriverBlocksTable {
  tenant_id: string;
  block_id: string;
  version: number;
  /** SHA-256 (hex) of the block's canonical JSON. */
  hash: string;
  /** The DriverBlock as JSON text. */
  block: string;
  /** 1 enabled, 0 disabled; the same on every version of an id. */
  enabled: number;
  created_at: string;
  updated_at: string;
}

export interface TraceEventsTable {
  tenant_id: string;
  trace_run_id: string;
  seq: number;
  transmission_id: string | null;
  actor: string;
  phase: string;
  status: string;
  summary: string | null;
  metadata: unknown;
  ts: string;
  prev_hash: string;
  hash: string;
}

export interface ResponsesTable {
  tenant_id: string;
  request_id: string;
  transmission_id: string;
  body_hash: string;
  response: unknown;
  created_at: string;
}

/** Added by migration 3: one proposed action of the permission gate. */
export interface ActionsTable {
  tenant_id: string;
  action_id: string;
  thread_id: string;
  /** The assistant message the chip is anchored to; null for checkpoint confirmations. */
  message_id: string | null;
  /** The request (turn or checkpoint evaluation) that proposed it. */
  request_id: string;
  source: string;
  action_kind: string;
  label: string;
  bullets: unknown;
  target: string | null;
  data_used: string | null;
  why: string | null;
  payload: unknown;
  payload_hash: string;
  status: string;
  receipt: unknown;
  error: unknown;
  /** The execute request_id that claimed the action last. */
  execute_request_id: string | null;
  /** While executing: when the claim counts as abandoned (crash recovery). */
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** Bumped by every status change; claims compare-and-swap on it. */
  version: number;
  /** Added by migration 19: the server key and HMAC the approval is bound to; NULL on older rows. */
  binding_key_id: string | null;
  binding_mac: string | null;
}

/** Added by migration 19: one link of a tenant's trace anchor chain (core `TraceAnchor`). */
export interface TraceAnchorsTable {
  tenant_id: string;
  tenant_seq: number;
  trace_run_id: string;
  run_tail_seq: number;
  run_tail_hash: string;
  prev_anchor_hash: string;
  anchor_hash: string;
}

/** Added by migration 3: the answer given to one execute request_id. */
export interface ActionExecutionsTable {
  tenant_id: string;
  action_id: string;
  request_id: string;
  status: string;
  receipt: unknown;
  error: unknown;
  created_at: string;
}

/** Added by migration 4. */
export interface RemindersTable {
  tenant_id: string;
  reminder_id: string;
  action_id: string | null;
  thread_id: string;
  title: string;
  /** The due time as proposed: an ISO instant or the user's raw phrase. */
  due: string | null;
  /** `due` when it is an ISO instant, normalised; null otherwise. */
  due_at: string | null;
  created_at: string;
}

/** Added by migration 4. `starts_at`/`ends_at` are ISO dates (all-day) or ISO instants. */
export interface CalendarEventsTable {
  tenant_id: string;
  event_id: string;
  action_id: string | null;
  thread_id: string;
  title: string;
  starts_at: string;
  ends_at: string | null;
  location: string | null;
  created_at: string;
}

/** Added by migration 5: one row per checkpoint session; `state` is a CheckpointSessionState. */
export interface CheckpointSessionsTable {
  tenant_id: string;
  session_id: string;
  state: unknown;
  version: number;
  last_request_id: string | null;
  last_result: unknown;
  created_at: string;
  updated_at: string;
}

/** Agency tasks (migration 6). JSON columns as above; `origin` is written once. */
export interface TasksTable {
  id: Generated<number | string>;
  tenant_id: string;
  task_id: string;
  type: string;
  title: string;
  description: string | null;
  status: string;
  priority: number;
  progress: number;
  /** metadata.goalKey; never the empty string (CHECK constraint). */
  goal_key: string | null;
  parameters: unknown;
  /** Task metadata without `origin` and `createdAt` (those live in their own columns). */
  metadata: unknown;
  origin: unknown;
  created_at: string;
  updated_at: string;
}

/** The thought history (migration 6): every recorded thought, low-novelty ones included. */
export interface ThoughtsTable {
  id: Generated<number | string>;
  tenant_id: string;
  thought_id: string;
  source: string;
  novelty: string;
  convert_eligible: number | null;
  goal_key: string | null;
  /** The converter's decision kind, when the thought went through it. */
  decision: string | null;
  task_id: string | null;
  /** 1 when the thought was emitted to the stream. */
  broadcast: number;
  thought: unknown;
  created_at: string;
}

/**
 * Migration 13: explicit memories, searched through the memory index (SQLite v21, PostgreSQL v23). On
 * PostgreSQL, v23 adds `index_doc`, the document number the index gives the memory (raw SQL only), and
 * migration 13's tsvector column stays, unused by this version.
 */
export interface MemoriesTable {
  seq: Generated<number | string>;
  tenant_id: string;
  memory_id: string;
  request_id: string;
  body_hash: string;
  text: string;
  summary: string;
  /** JSON array text in both dialects. */
  domain_flags: string;
  thread_id: string | null;
  source: string;
  /** The text of the memory saved before it in the same thread, searched at a low weight. */
  context: string;
  created_at: string;
  updated_at: string;
}

/** Migration 18: a tenant's agency session state (counters, drive-tick timer, broadcast count). */
export interface AgencyStateTable {
  tenant_id: string;
  started_at_ms: number | string;
  last_drive_tick_ms: number | string | null;
  llm_calls: Generated<number | string>;
  goal_tags: Generated<number | string>;
  drive_ticks: Generated<number | string>;
  signature_suppressions: Generated<number | string>;
  content_suppressions: Generated<number | string>;
  intent_extractions: Generated<number | string>;
  low_novelty_recorded: Generated<number | string>;
  low_novelty_broadcast: Generated<number | string>;
  low_novelty_seen: Generated<number | string>;
}

/** Migration 18: when a banded situation signature last let a model call through. */
export interface AgencySignaturesTable {
  tenant_id: string;
  signature: string;
  seen_at_ms: number | string;
}

/** The whole schema after the latest migration. */
/** Migrations 21 (SQLite) and 23 (PostgreSQL): a chunk of a term's postings in a tenant's memories (repos/memory-index.ts). */
export interface MemoryPostingsTable {
  tenant_id: string;
  term: string;
  /** At most the chunk's first seq, above every seq of the chunk before. */
  chunk: number;
  n: number;
  last_seq: number;
  postings: Uint8Array;
}

/** Migrations 21 and 23: how many of a tenant's memories hold a term, and its postings' version. */
export interface MemoryTermsTable {
  tenant_id: string;
  term: string;
  df: number;
  /** Drawn at random at each change of the term's postings: an unchanged version, unchanged postings. */
  version: number;
  /** The term's last chunk, its postings and last seq (null in the store-wide rows). */
  last_chunk: number | null;
  last_n: number | null;
  last_seq: number | null;
}

/** Migrations 21 and 23: what the memory index holds per tenant. */
export interface MemoryIndexStateTable {
  tenant_id: string;
  indexed_seq: number;
  docs: number;
  tokens: number;
}

export interface StoreDatabase {
  sol_migrations: MigrationsTable;
  transmissions: TransmissionsTable;
  delivery_attempts: DeliveryAttemptsTable;
  messages: MessagesTable;
  thread_stats: ThreadStatsTable;
  mementos: MementosTable;
  trace_events: TraceEventsTable;
  responses: ResponsesTable;
  actions: ActionsTable;
  trace_anchors: TraceAnchorsTable;
  action_executions: ActionExecutionsTable;
  reminders: RemindersTable;
  calendar_events: CalendarEventsTable;
  checkpoint_sessions: CheckpointSessionsTable;
  checkpoints: CheckpointsTable;
  pinned_contexts: PinnedContextsTable;
  driver_blocks: DriverBlocksTable;
  tasks: TasksTable;
  thoughts: ThoughtsTable;
  memories: MemoriesTable;
  memory_postings: MemoryPostingsTable;
  memory_terms: MemoryTermsTable;
  memory_index_state: MemoryIndexStateTable;
  agency_state: AgencyStateTable;
  agency_signatures: AgencySignaturesTable;
}

/** The two SQL dialects the store runs on. */
export type StoreDialect = "sqlite" | "postgres";
