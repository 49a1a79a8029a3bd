import { fail, ok, type Result, SolError } from "@solserver/core";

/** Where a store lives, parsed from `SOL_DB_URL`. */
export type StoreLocation =
  | { readonly kind: "sqlite"; readonly path: string; readonly memory: boolean }
  | {
      readonly kind: "postgres";
      /** The connection string with the `schema` parameter removed (pg would not understand it). */
      readonly connectionString: string;
      /** Schema to create and put first on `search_path`, lowercased; null keeps the server default. */
      readonly schema: string | null;
      /**
       * Server-side prepared statements per pooled connection (`?statement_cache=<n>`; absent: the
       * default, 256); 0 sends every statement unnamed, for a pooler in transaction mode.
       */
      readonly statementCache?: number;
    };

const SQLITE_MEMORY = "sqlite::memory:";
/** Unquoted PostgreSQL identifier: safe to interpolate after this check. */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** 0 to 10000: more statements than any store runs, and few enough to bound a connection's memory. */
const STATEMENT_CACHE = /^(?:0|[1-9]\d{0,3}|10000)$/;

/** {@link parseStoreUrl} for openers: a bad URL throws SolError `invalid_input` with the issues. */
export function requireStoreLocation(url: string): StoreLocation {
  const parsed = parseStoreUrl(url);
  if (!parsed.ok) {
    throw new SolError("invalid_input", parsed.issues.map((issue) => issue.message).join("; "), {
      details: parsed.issues,
    });
  }
  return parsed.value;
}

/** Parses `sqlite:<path>`, `sqlite::memory:` or `postgres[ql]://...[?schema=<name>][&statement_cache=<n>]`. */
export function parseStoreUrl(url: string): Result<StoreLocation> {
  const trimmed = url.trim();
  if (trimmed === SQLITE_MEMORY) return ok({ kind: "sqlite", path: ":memory:", memory: true });
  if (trimmed.startsWith("sqlite:")) return parseSqlite(trimmed.slice("sqlite:".length));
  if (/^postgres(ql)?:\/\//.test(trimmed)) return parsePostgres(trimmed);
  return invalid(
    `Unsupported store URL ${JSON.stringify(redact(trimmed))}: use sqlite:<path>, sqlite::memory: or postgres://...`,
  );
}

function parseSqlite(path: string): Result<StoreLocation> {
  if (path.length === 0) return invalid("The store URL sqlite: needs a file path, e.g. sqlite:./data/sol.db");
  if (path.startsWith("//")) {
    return invalid("Write SQLite store URLs as sqlite:<path> (e.g. sqlite:/var/sol.db), not sqlite://");
  }
  return ok({ kind: "sqlite", path, memory: false });
}

function parsePostgres(raw: string): Result<StoreLocation> {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return invalid(`The PostgreSQL store URL ${JSON.stringify(redact(raw))} is not a valid URL`);
  }
  if (parsed.hostname === "" && !parsed.searchParams.has("host")) {
    return invalid("The PostgreSQL store URL needs a host, e.g. postgres://user@127.0.0.1:5432/db");
  }
  const schemas = parsed.searchParams.getAll("schema");
  if (schemas.length > 1) return invalid("The PostgreSQL store URL may give ?schema= only once");
  const schema = schemas[0] ?? null;
  if (schema !== null && !SCHEMA_NAME.test(schema)) {
    return invalid(
      `The schema name ${JSON.stringify(schema)} must be letters, digits and underscores, not starting with a digit (max 63)`,
    );
  }
  const caches = parsed.searchParams.getAll("statement_cache");
  if (caches.length > 1) return invalid("The PostgreSQL store URL may give ?statement_cache= only once");
  const cache = caches[0];
  if (cache !== undefined && !STATEMENT_CACHE.test(cache)) {
    return invalid(
      `statement_cache must be a whole number from 0 (off) to 10000, not ${JSON.stringify(cache)}`,
    );
  }
  parsed.searchParams.delete("schema");
  parsed.searchParams.delete("statement_cache");
  // A plain (unquoted) identifier names the lowercase schema in PostgreSQL, as search_path reads it;
  // created under its spelling instead, a name with capitals was a schema search_path never reached.
  return ok({
    kind: "postgres",
    connectionString: parsed.toString(),
    schema: schema?.toLowerCase() ?? null,
    ...(cache === undefined ? {} : { statementCache: Number(cache) }),
  });
}

function invalid(message: string): Result<StoreLocation> {
  return fail({ code: "invalid_store_url", message, path: ["url"] });
}

/** Hides a password (`user:password@` or pg's `?password=`) so messages never leak it. */
export function redact(url: string): string {
  return url
    .replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/, "$1***@")
    .replace(/([?&]password=)[^&#]*/gi, "$1***");
}
