import type { CalendarEventRecord, CalendarStore, ReminderRecord, ReminderStore } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { T0 } from "../support/samples.js";

/** The two stores the built-in executors write to, however a backend opens them. */
export interface ExecutorRecordStores {
  readonly calendar: CalendarStore;
  readonly reminders: ReminderStore;
}

const A = "tenant-a";
const B = "tenant-b";

const reminder = (id: string, overrides: Partial<ReminderRecord> = {}): ReminderRecord => ({
  tenantId: A,
  reminderId: id,
  actionId: `act-${id}`,
  threadId: "thread-1",
  title: `Reminder ${id}`,
  due: "tomorrow at 9",
  dueAt: null,
  createdAt: T0,
  ...overrides,
});

const event = (
  id: string,
  start: string,
  overrides: Partial<CalendarEventRecord> = {},
): CalendarEventRecord => ({
  tenantId: A,
  eventId: id,
  actionId: `act-${id}`,
  threadId: "thread-1",
  title: `Event ${id}`,
  start,
  end: null,
  location: null,
  createdAt: T0,
  ...overrides,
});

/** ReminderStore and CalendarStore: one record per action, tenant-scoped lists in a fixed order. */
export function executorRecordContract(open: () => Promise<ExecutorRecordStores>): void {
  describe("executor records", () => {
    it("keeps one reminder per action: a repeat returns the first, not created", async () => {
      const { reminders } = await open();
      expect(await reminders.create(reminder("r1"))).toEqual({ reminder: reminder("r1"), created: true });
      const again = await reminders.create(reminder("r2", { actionId: "act-r1", title: "other" }));
      expect(again).toEqual({ reminder: reminder("r1"), created: false });
      expect(await reminders.getByAction(A, "act-r1")).toEqual(reminder("r1"));
      expect(await reminders.getByAction(B, "act-r1")).toBeNull();
      expect(await reminders.getByAction(A, "act-none")).toBeNull();
    });

    it("lists a tenant's reminders oldest first, by thread and up to a limit", async () => {
      const { reminders } = await open();
      await reminders.create(reminder("r2", { createdAt: "2025-03-02T00:00:00.000Z" }));
      await reminders.create(reminder("r1", { threadId: "thread-2" }));
      await reminders.create(reminder("r3", { tenantId: B }));
      await reminders.create(reminder("r0", { actionId: null }));
      const ids = (rows: readonly ReminderRecord[]) => rows.map((row) => row.reminderId);
      expect(ids(await reminders.list(A))).toEqual(["r0", "r1", "r2"]);
      expect(ids(await reminders.list(A, { threadId: "thread-2" }))).toEqual(["r1"]);
      expect(ids(await reminders.list(A, { limit: 1 }))).toEqual(["r0"]);
      expect(ids(await reminders.list(B))).toEqual(["r3"]);
    });

    it("keeps one calendar event per action and lists events by start time", async () => {
      const { calendar } = await open();
      const late = event("e1", "2025-03-05");
      expect(await calendar.create(late)).toEqual({ event: late, created: true });
      expect(await calendar.create(event("e9", "2025-03-01", { actionId: "act-e1" }))).toEqual({
        event: late,
        created: false,
      });
      await calendar.create(event("e2", "2025-03-02T09:00:00.000Z", { threadId: "thread-2" }));
      await calendar.create(event("e3", "2025-03-01", { tenantId: B }));
      const ids = (rows: readonly CalendarEventRecord[]) => rows.map((row) => row.eventId);
      expect(ids(await calendar.list(A))).toEqual(["e2", "e1"]);
      expect(ids(await calendar.list(A, { threadId: "thread-1" }))).toEqual(["e1"]);
      expect(ids(await calendar.list(A, { limit: 1 }))).toEqual(["e2"]);
      expect(await calendar.getByAction(A, "act-e1")).toEqual(late);
      expect(await calendar.getByAction(B, "act-e1")).toBeNull();
    });

    it("returns copies: changing a returned record does not change the stored one", async () => {
      const { reminders } = await open();
      const { reminder: stored } = await reminders.create(reminder("r1"));
      (stored as { title: string }).title = "changed";
      expect((await reminders.getByAction(A, "act-r1"))?.title).toBe("Reminder r1");
    });
  });
}
