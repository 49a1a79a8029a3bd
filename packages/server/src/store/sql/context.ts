import type { Kysely } from "kysely";
import type { StoreDatabase, StoreDialect } from "./schema.js";

/** What every table module needs: the query handle (or a transaction), its dialect and the clock. */
export interface StoreContext {
  readonly db: Kysely<StoreDatabase>;
  readonly dialect: StoreDialect;
  /** Current time as an ISO-8601 string (from the injected clock). */
  readonly nowIso: () => string;
}
