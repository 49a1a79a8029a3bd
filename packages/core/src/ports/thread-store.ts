import type { ThreadMessage, ThreadSummary } from "../contracts/threads.js";
import type { TenantId } from "./tenant.js";

/** A page request of {@link ThreadStore.list}: `after` is the last threadId of the previous page. */
export interface ThreadListQuery {
  readonly limit: number;
  readonly after?: string;
}

/** A page request of {@link ThreadStore.listMessages}: messages with a seq above `afterSeq`. */
export interface ThreadMessageQuery {
  readonly limit: number;
  readonly afterSeq?: number;
}

/** A tenant's threads as its user sees them: listed, read back and deleted. */
export interface ThreadStore {
  /** Threads with messages, latest activity first; `after` an unknown thread gives an empty page. */
  list(tenantId: TenantId, query: ThreadListQuery): Promise<ThreadSummary[]>;
  /** Messages of a thread in order; null when the tenant has no such thread. */
  listMessages(
    tenantId: TenantId,
    threadId: string,
    query: ThreadMessageQuery,
  ): Promise<ThreadMessage[] | null>;
  /**
   * Removes the thread's messages, stats, memento and checkpoints in one transaction; false when the
   * tenant had no such thread (nothing removed).
   */
  deleteThread(tenantId: TenantId, threadId: string): Promise<boolean>;
}
