import { CalendarEventList, CalendarEventView, ReminderList, ReminderView } from "@solserver/core";
import { bad, type ContractCase, missing, unknownKey } from "./helpers.js";

const reminder = {
  reminder_id: "rem_1",
  title: "call the bank",
  due: "tomorrow at 9",
  due_at: "2025-01-02T09:00:00.000Z",
  thread_id: "t-1",
  action_id: "act_1",
  created_at: "2025-01-01T10:00:00.000Z",
};
const event = {
  event_id: "evt_1",
  title: "Dentist",
  start: "2025-01-03",
  end: null,
  location: null,
  thread_id: "t-1",
  action_id: "act_2",
  created_at: "2025-01-01T10:00:00.000Z",
};

export const executedRecordCases: Record<string, ContractCase> = {
  ReminderView: {
    schema: ReminderView,
    valid: [reminder, { ...reminder, due: null, due_at: null, action_id: null }],
    invalid: [
      bad("title not a string", reminder, ["title"], 1),
      bad("due_at undefined", reminder, ["due_at"], undefined),
      missing(reminder, ["thread_id"]),
      unknownKey(reminder),
    ],
  },
  ReminderList: {
    schema: ReminderList,
    valid: [{ reminders: [] }, { reminders: [reminder] }],
    invalid: [
      bad("reminder without id", { reminders: [reminder] }, ["reminders", 0, "reminder_id"], 7),
      missing({ reminders: [] }, ["reminders"]),
      unknownKey({ reminders: [] }),
    ],
  },
  CalendarEventView: {
    schema: CalendarEventView,
    valid: [event, { ...event, end: "2025-01-03T11:00:00Z", location: "Main St" }],
    invalid: [
      bad("start null", event, ["start"], null),
      bad("location a number", event, ["location"], 3),
      missing(event, ["event_id"]),
      unknownKey(event),
    ],
  },
  CalendarEventList: {
    schema: CalendarEventList,
    valid: [{ events: [] }, { events: [event] }],
    invalid: [
      bad("event title missing", { events: [event] }, ["events", 0, "title"], undefined),
      missing({ events: [] }, ["events"]),
      unknownKey({ events: [] }),
    ],
  },
};
