import type { Kysely } from "kysely";
import type { StoreDatabase, StoreDialect } from "../sql/schema.js";

/** Connection settings shared by both backends. */
export interface ConnectSettings {
  readonly busyTimeoutMs: number;
  readonly poolMax: number;
}

/** A live Kysely handle plus what the store needs to know about it. */
export interface Connection {
  readonly db: Kysely<StoreDatabase>;
  readonly dialect: StoreDialect;
}

/**
 * Why opening failed, for the message (`sol serve` prints only the message): "file is not a database",
 * "role \"x\" does not exist", "connect ECONNREFUSED ...". Driver messages carry no password.
 */
export function reason(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  if (message) return message;
  // pg reports a refused connection as an AggregateError (one per address) with an empty message.
  const errors = (cause as { errors?: unknown[] } | null)?.errors;
  return Array.isArray(errors) && errors.length > 0 ? reason(errors[0]) : "unknown error";
}
