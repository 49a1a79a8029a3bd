/** Driver error classification shared by both dialects (SQLite result codes, PostgreSQL SQLSTATEs). */

function codeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** True when a PostgreSQL error carries the given SQLSTATE. */
export function isPgErrorCode(error: unknown, sqlState: string): boolean {
  return codeOf(error) === sqlState;
}

/** A unique or primary-key constraint rejected the write. */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/** A foreign-key constraint rejected the write (the referenced row does not exist). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}

/** A transient conflict between concurrent transactions that a retry resolves. */
export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  return (
    isUniqueViolation(error) ||
    code === "40001" ||
    code === "40P01" ||
    code === "SQLITE_BUSY" ||
    code === "SQLITE_BUSY_SNAPSHOT"
  );
}

/** A CHECK constraint rejected the write. */
export function isCheckViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "23514" || code === "SQLITE_CONSTRAINT_CHECK";
}
