import { isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { openStore, parseStoreUrl } from "../../src/store/index.js";

describe("parseStoreUrl", () => {
  it("reads the three supported forms", () => {
    expect(parseStoreUrl("sqlite::memory:")).toEqual({
      ok: true,
      value: { kind: "sqlite", path: ":memory:", memory: true },
    });
    expect(parseStoreUrl("sqlite:./data/sol.db")).toEqual({
      ok: true,
      value: { kind: "sqlite", path: "./data/sol.db", memory: false },
    });
    expect(parseStoreUrl("postgres://u:p@db.example:5433/sol?schema=run_1&sslmode=disable")).toEqual({
      ok: true,
      value: {
        kind: "postgres",
        connectionString: "postgres://u:p@db.example:5433/sol?sslmode=disable",
        schema: "run_1",
      },
    });
    expect(parseStoreUrl("postgresql://db.example/sol")).toMatchObject({
      ok: true,
      value: { kind: "postgres", schema: null },
    });
  });

  it("rejects unsupported or malformed URLs with a message naming the accepted forms", () => {
    for (const url of [
      "",
      "mysql://x/y",
      "sqlite:",
      "sqlite://relative.db",
      "file:/tmp/x.db",
      "postgres://",
    ]) {
      const parsed = parseStoreUrl(url);
      expect(parsed.ok, url).toBe(false);
    }
    const unsupported = parseStoreUrl("mysql://x/y");
    expect(!unsupported.ok && unsupported.issues[0]?.message).toMatch(/sqlite:<path>.*postgres:\/\//);
  });

  it("keeps a Unix socket directory given as the host, percent-encoded, for pg", () => {
    expect(parseStoreUrl("postgres://sol@%2Fvar%2Frun%2Fpostgresql/sol?schema=s")).toEqual({
      ok: true,
      value: {
        kind: "postgres",
        connectionString: "postgres://sol@%2Fvar%2Frun%2Fpostgresql/sol",
        schema: "s",
      },
    });
  });

  it("accepts only plain identifiers as schema names", () => {
    for (const schema of ["a;drop table x", '"quoted"', "1abc", "a".repeat(64), "sp ace"]) {
      expect(parseStoreUrl(`postgres://h/db?schema=${encodeURIComponent(schema)}`).ok, schema).toBe(false);
    }
    expect(parseStoreUrl("postgres://h/db?schema=a&schema=b").ok).toBe(false);
    expect(parseStoreUrl("postgres://h/db?schema=_Ok_9").ok).toBe(true);
  });

  it("reads ?statement_cache= as a whole number from 0 to 10000 and keeps it out of the connection string", () => {
    expect(parseStoreUrl("postgres://h/db?statement_cache=0&schema=s")).toEqual({
      ok: true,
      value: { kind: "postgres", connectionString: "postgres://h/db", schema: "s", statementCache: 0 },
    });
    expect(parseStoreUrl("postgres://h/db?statement_cache=10000")).toMatchObject({
      ok: true,
      value: { statementCache: 10000 },
    });
    // Absent, the store takes its default.
    const plain = parseStoreUrl("postgres://h/db");
    expect(plain.ok && "statementCache" in plain.value).toBe(false);
    for (const bad of ["", "-1", "1.5", "10001", "01", "on", "1e3"]) {
      const parsed = parseStoreUrl(`postgres://h/db?statement_cache=${bad}`);
      expect(parsed.ok, bad).toBe(false);
      expect(!parsed.ok && parsed.issues[0]?.message, bad).toMatch(/statement_cache must be a whole number/);
    }
    expect(parseStoreUrl("postgres://h/db?statement_cache=1&statement_cache=2").ok).toBe(false);
  });

  it("names the lowercase schema, as PostgreSQL reads a plain identifier", () => {
    expect(parseStoreUrl("postgres://h/db?schema=Run_A1")).toMatchObject({
      ok: true,
      value: { schema: "run_a1" },
    });
  });

  it("never echoes a password in an error", () => {
    const parsed = parseStoreUrl("postgres://user:s3cret@[bad/db");
    expect(parsed.ok).toBe(false);
    expect(JSON.stringify(parsed)).not.toContain("s3cret");
  });
});

describe("openStore input checks", () => {
  it("rejects an invalid URL with SolError invalid_input", async () => {
    const error = await openStore("mongodb://localhost/sol").catch((caught: unknown) => caught);
    expect(isSolError(error) && error.code).toBe("invalid_input");
    expect((error as Error).message).toMatch(/Unsupported store URL/);
  });

  it("rejects invalid options with SolError invalid_input", async () => {
    for (const options of [{ busyTimeoutMs: -1 }, { poolMax: 0 }, { poolMax: 1.5 }]) {
      const error = await openStore("sqlite::memory:", options).catch((caught: unknown) => caught);
      expect(isSolError(error) && error.code, JSON.stringify(options)).toBe("invalid_input");
    }
  });

  it("reports an unreachable PostgreSQL server as unavailable without leaking the password", async () => {
    const error = await openStore("postgres://sol:hunter2@127.0.0.1:1/sol").catch(
      (caught: unknown) => caught,
    );
    expect(isSolError(error) && error.code).toBe("unavailable");
    expect((error as Error).message).not.toContain("hunter2");
  });
});
