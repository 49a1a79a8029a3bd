const PILLS: Readonly<Record<string, string>> = {
  create_reminder: "Reminder created",
  create_calendar_event: "Event added",
  send_message: "Message sent",
};

/** The short receipt pill of a succeeded action, by its action_kind ("Reminder created"). */
export function receiptPillLabel(actionKind: string): string {
  return PILLS[actionKind] ?? "Done";
}

/** The pending line of an approved action, by its action_kind ("Creating…"). */
export function pendingLabel(actionKind: string): string {
  if (actionKind.startsWith("create_")) return "Creating…";
  if (actionKind.startsWith("send_")) return "Sending…";
  return "Working…";
}
