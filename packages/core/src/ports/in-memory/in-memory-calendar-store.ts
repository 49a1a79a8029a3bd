import { compareText } from "../../text/index.js";
import type { CalendarEventRecord, CalendarStore } from "../calendar-store.js";
import { insertOncePerAction, listRows } from "./by-action.js";

/** The reference CalendarStore: events in an array, at most one per action, listed by start time. */
export function createInMemoryCalendarStore(): CalendarStore {
  const rows: CalendarEventRecord[] = [];
  return {
    async create(event) {
      const { record, created } = insertOncePerAction(rows, event);
      return { event: record, created };
    },
    async getByAction(tenantId, actionId) {
      const found = rows.find((row) => row.tenantId === tenantId && row.actionId === actionId);
      return found === undefined ? null : { ...found };
    },
    async list(tenantId, options = {}) {
      return listRows(
        rows,
        tenantId,
        options,
        (a, b) => compareText(a.start, b.start) || compareText(a.eventId, b.eventId),
      );
    },
  };
}
