import type pg from "pg";
import { isPgErrorCode } from "../../sql/db-errors.js";

/** Server-side prepared statements per pooled connection when the store URL does not say. */
export const DEFAULT_STATEMENT_CACHE = 256;

/**
 * A prepared statement the server can no longer run as prepared: its result columns changed under it
 * (`0A000`, a migration from another instance added a column to a `select *`), or the server does not
 * know the name (`26000`, a pooler that moved the session, or `DISCARD ALL`).
 */
function isStalePrepared(error: unknown): boolean {
  return isPgErrorCode(error, "0A000") || isPgErrorCode(error, "26000");
}

type QueryFn = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Makes a pooled client send a parameterised SQL text it has run before on this connection as a named
 * statement, so PostgreSQL parses and plans it once per connection instead of on every run (a turn
 * runs about 27 statements, nearly all the same texts every time). A text is named on its second run:
 * one-off texts (an admin listing, a migration) never take a slot. At most `capacity` texts are named
 * per connection; later ones run unnamed. A statement the server reports stale is forgotten, so its
 * next run prepares it afresh under a new name, and a run outside a transaction is retried at once,
 * unnamed; inside one the error stands (the transaction is already aborted).
 */
export function cacheStatements(client: pg.Client, capacity: number): void {
  if (capacity <= 0) return;
  const query = client.query.bind(client) as QueryFn;
  const named = new Map<string, string>();
  // Texts run once so far; cleared when it fills, so it stays bounded whatever the texts are.
  const seenOnce = new Set<string>();
  let serial = 0;

  const nameFor = (text: string): string | undefined => {
    const known = named.get(text);
    if (known !== undefined || named.size >= capacity) return known;
    if (!seenOnce.has(text)) {
      if (seenOnce.size >= capacity * 4) seenOnce.clear();
      seenOnce.add(text);
      return undefined;
    }
    seenOnce.delete(text);
    const name = `sol_${(serial++).toString(36)}`;
    named.set(text, name);
    return name;
  };

  const runNamed = (name: string, text: string, values: unknown[]): Promise<pg.QueryResult> => {
    const run = query({ name, text, values }) as Promise<pg.QueryResult>;
    return run.catch((error: unknown) => {
      if (!isStalePrepared(error)) throw error;
      named.delete(text);
      // "I": the server is idle, outside any transaction, so nothing was aborted and a retry is safe.
      if (client.getTransactionStatus() !== "I") throw error;
      return query(text, values) as Promise<pg.QueryResult>;
    });
  };

  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    // Kysely's form: a text and its parameters, answered by a promise. Anything else passes through,
    // and so does a text without parameters (BEGIN, COMMIT, DDL): one simple-protocol message, no plan.
    if (typeof config === "string" && Array.isArray(values) && values.length > 0 && callback === undefined) {
      const name = nameFor(config);
      if (name !== undefined) return runNamed(name, config, values);
    }
    return query(config, values, callback);
  }) as typeof client.query;
}
