import { z } from "zod";

// What approved actions leave behind, as `GET /v1/reminders` and `GET /v1/calendar/events` show it.
// Shared by the server routes and the SDK so both read one definition.

/** One reminder; `due` is the phrase the user wrote, `due_at` the instant it resolved to (if any). */
export const ReminderView = z
  .object({
    reminder_id: z.string(),
    title: z.string(),
    due: z.string().nullable(),
    due_at: z.string().nullable(),
    thread_id: z.string(),
    action_id: z.string().nullable(),
    created_at: z.string(),
  })
  .strict();
export type ReminderView = z.infer<typeof ReminderView>;

/** `GET /v1/reminders[?thread_id=]`: oldest first. */
export const ReminderList = z.object({ reminders: z.array(ReminderView) }).strict();
export type ReminderList = z.infer<typeof ReminderList>;

/** One calendar event. `start`/`end` are ISO dates (all-day) or instants. */
export const CalendarEventView = z
  .object({
    event_id: z.string(),
    title: z.string(),
    start: z.string(),
    end: z.string().nullable(),
    location: z.string().nullable(),
    thread_id: z.string(),
    action_id: z.string().nullable(),
    created_at: z.string(),
  })
  .strict();
export type CalendarEventView = z.infer<typeof CalendarEventView>;

/** `GET /v1/calendar/events[?thread_id=]`. */
export const CalendarEventList = z.object({ events: z.array(CalendarEventView) }).strict();
export type CalendarEventList = z.infer<typeof CalendarEventList>;
