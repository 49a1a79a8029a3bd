import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { multiRowInsertSql } from "../../src/store/sql/raw-insert.js";

describe("multiRowInsertSql", () => {
  it("numbers PostgreSQL placeholders across rows and uses ? for SQLite", () => {
    expect(multiRowInsertSql("postgres", "messages", ["role", "content"], 2)).toBe(
      'insert into "messages" ("role", "content") values ($1, $2), ($3, $4)',
    );
    expect(multiRowInsertSql("sqlite", "messages", ["role", "content"], 2)).toBe(
      'insert into "messages" ("role", "content") values (?, ?), (?, ?)',
    );
  });

  it("has one placeholder per value, in order, for any shape (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 30 }), (width, rows) => {
        const columns = Array.from({ length: width }, (_, i) => `c${i}`);
        const pg = multiRowInsertSql("postgres", "trace_events", columns, rows);
        const numbers = [...pg.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
        expect(numbers).toEqual(Array.from({ length: width * rows }, (_, i) => i + 1));
        const lite = multiRowInsertSql("sqlite", "trace_events", columns, rows);
        expect(lite.split("?").length - 1).toBe(width * rows);
        expect(multiRowInsertSql("sqlite", "trace_events", columns, rows)).toBe(lite);
      }),
    );
  });
});
