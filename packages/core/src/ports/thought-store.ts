import type { Thought } from "../agency/thought.js";
import type { TenantId } from "./tenant.js";

/** One recorded thought and what became of it. */
export interface ThoughtEntry {
  readonly thought: Thought;
  /** True when the thought was emitted to the stream (low-novelty ones only sometimes are). */
  readonly broadcast: boolean;
  /** The converter's decision kind, when the thought went through it. */
  readonly decision?: string;
  readonly taskId?: string;
}

/** The persistent thought history: every recorded thought, low-novelty ones included. */
export interface ThoughtStore {
  append(tenantId: TenantId, entry: ThoughtEntry): Promise<void>;
  /** The most recent `limit` entries, oldest first. */
  listRecent(tenantId: TenantId, limit: number): Promise<ThoughtEntry[]>;
  count(tenantId: TenantId): Promise<number>;
}
