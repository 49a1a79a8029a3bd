import type { TenantId } from "./tenant.js";

/** A reminder the create_reminder executor wrote. */
export interface ReminderRecord {
  readonly tenantId: TenantId;
  readonly reminderId: string;
  readonly actionId: string | null;
  readonly threadId: string;
  readonly title: string;
  /** The due time as proposed: an ISO instant or the user's raw phrase. */
  readonly due: string | null;
  /** `due` normalised when it is an ISO instant. */
  readonly dueAt: string | null;
  readonly createdAt: string;
}

/** Repository of reminders. */
export interface ReminderStore {
  /**
   * Inserts a reminder; at most one exists per action, so a second create for the same action returns
   * the first one with `created: false`.
   */
  create(reminder: ReminderRecord): Promise<{ readonly reminder: ReminderRecord; readonly created: boolean }>;
  getByAction(tenantId: TenantId, actionId: string): Promise<ReminderRecord | null>;
  /** A tenant's reminders (optionally one thread's), oldest first. */
  list(
    tenantId: TenantId,
    options?: { readonly threadId?: string; readonly limit?: number },
  ): Promise<ReminderRecord[]>;
}
