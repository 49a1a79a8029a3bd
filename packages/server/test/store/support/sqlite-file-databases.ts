import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { MakeDatabase } from "../contract/harness.js";

/**
 * A fresh SQLite file per test under one temporary root (removed after the file's tests), at a nested
 * path so that opening a store must create the parent directories.
 */
export function sqliteFileDatabases(prefix: string): MakeDatabase {
  const root = mkdtempSync(join(tmpdir(), prefix));
  let n = 0;
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return async () => {
    n += 1;
    const caseDir = join(root, `case-${n}`);
    return {
      url: `sqlite:${join(caseDir, "nested", "sol.db")}`,
      drop: async () => rmSync(caseDir, { recursive: true, force: true }),
    };
  };
}
