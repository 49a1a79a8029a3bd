import type { TenantId } from "./tenant.js";

/** A calendar event the create_calendar_event executor wrote. */
export interface CalendarEventRecord {
  readonly tenantId: TenantId;
  readonly eventId: string;
  readonly actionId: string | null;
  readonly threadId: string;
  readonly title: string;
  /** An ISO date (all-day) or ISO instant. */
  readonly start: string;
  readonly end: string | null;
  readonly location: string | null;
  readonly createdAt: string;
}

/** Repository of calendar events. */
export interface CalendarStore {
  /** Inserts an event; at most one per action, so a repeat returns the first with `created: false`. */
  create(
    event: CalendarEventRecord,
  ): Promise<{ readonly event: CalendarEventRecord; readonly created: boolean }>;
  getByAction(tenantId: TenantId, actionId: string): Promise<CalendarEventRecord | null>;
  /** A tenant's events (optionally one thread's), by start time. */
  list(
    tenantId: TenantId,
    options?: { readonly threadId?: string; readonly limit?: number },
  ): Promise<CalendarEventRecord[]>;
}
