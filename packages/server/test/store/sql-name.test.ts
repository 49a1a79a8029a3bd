import { describe, expect, it } from "vitest";
import { assertSqlName } from "../../src/store/drivers/sql-name.js";

describe("assertSqlName", () => {
  it("passes plain identifiers and refuses anything that could change the SQL around it", () => {
    for (const name of ["memento", "threadId", "_x1"]) expect(assertSqlName(name)).toBe(name);
    for (const name of ["", "a'b", 'a"b', "a b", "a.b", "1a", "arc') --", "a-b"]) {
      expect(() => assertSqlName(name), name).toThrow(/not a plain SQL name/);
    }
  });
});
