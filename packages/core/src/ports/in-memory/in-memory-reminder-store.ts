import { compareText } from "../../text/index.js";
import type { ReminderRecord, ReminderStore } from "../reminder-store.js";
import { insertOncePerAction, listRows } from "./by-action.js";

/** The reference ReminderStore: reminders in an array, at most one per action, oldest first. */
export function createInMemoryReminderStore(): ReminderStore {
  const rows: ReminderRecord[] = [];
  return {
    async create(reminder) {
      const { record, created } = insertOncePerAction(rows, reminder);
      return { reminder: record, created };
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
        (a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.reminderId, b.reminderId),
      );
    },
  };
}
