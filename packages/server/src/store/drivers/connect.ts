import type { Connection, ConnectSettings } from "./connection.js";
import { connectPostgres } from "./postgres/connect-postgres.js";
import { connectSqlite } from "./sqlite/connect-sqlite.js";
import type { StoreLocation } from "./store-url.js";

export type { Connection, ConnectSettings } from "./connection.js";

/** Opens the database a location names, configured for the store (WAL/FKs or schema/search_path). */
export async function connect(location: StoreLocation, settings: ConnectSettings): Promise<Connection> {
  return location.kind === "sqlite"
    ? connectSqlite(location.path, location.memory, settings)
    : connectPostgres(location, settings);
}
