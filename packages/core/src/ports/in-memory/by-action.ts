/** A record an executor writes at most once per action (reminders, calendar events). */
export interface ActionKeyed {
  readonly tenantId: string;
  readonly actionId: string | null;
}

/**
 * Inserts `record` unless the tenant already holds one for its action (a repeat returns that one),
 * the in-memory twin of the SQL stores' `on conflict (tenant_id, action_id) do nothing`.
 */
export function insertOncePerAction<T extends ActionKeyed>(
  rows: T[],
  record: T,
): { readonly record: T; readonly created: boolean } {
  const existing =
    record.actionId === null
      ? undefined
      : rows.find((row) => row.tenantId === record.tenantId && row.actionId === record.actionId);
  if (existing !== undefined) return { record: existing, created: false };
  const stored = { ...record };
  rows.push(stored);
  return { record: { ...stored }, created: true };
}

/** A tenant's rows (optionally one thread's), sorted and cut to `limit` (default 500), as copies. */
export function listRows<T extends ActionKeyed & { readonly threadId: string }>(
  rows: readonly T[],
  tenantId: string,
  options: { readonly threadId?: string; readonly limit?: number },
  order: (a: T, b: T) => number,
): T[] {
  return rows
    .filter(
      (row) =>
        row.tenantId === tenantId && (options.threadId === undefined || row.threadId === options.threadId),
    )
    .sort(order)
    .slice(0, options.limit ?? 500)
    .map((row) => ({ ...row }));
}
