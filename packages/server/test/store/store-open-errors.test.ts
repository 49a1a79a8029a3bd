import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isSolError } from "@solserver/core";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, openStoreOn } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "sol-open-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function openError(open: () => Promise<{ close(): Promise<void> }>): Promise<Error> {
  const result = await open().catch((error: unknown) => error);
  if (!isSolError(result)) {
    await (result as { close(): Promise<void> }).close();
    throw new Error("the store opened");
  }
  expect(result.code).toBe("unavailable");
  return result;
}

// `sol serve` prints only the message of a start-up error: it has to say why the store did not open.
describe("store open errors say why", () => {
  it("a SQLite file that is not a database, on the request thread and on the store thread", async () => {
    const file = join(dir, "not-a-db.db");
    writeFileSync(file, "this is not a SQLite database, just some text that is long enough\n".repeat(20));
    for (const thread of ["main", "auto"] as const) {
      const error = await openError(() => openStoreOn(`sqlite:${file}`, thread));
      expect(error.message).toBe(`Cannot open the SQLite store ${file}: file is not a database`);
    }
  });

  it("a SQLite path that is a directory or under a file", async () => {
    const folder = join(dir, "folder");
    mkdirSync(folder);
    expect((await openError(() => openStore(`sqlite:${folder}`))).message).toMatch(
      new RegExp(`^Cannot open the SQLite store ${folder}: .+`),
    );
    const file = join(dir, "plain-file");
    writeFileSync(file, "x");
    expect((await openError(() => openStore(`sqlite:${join(file, "sol.db")}`))).message).toMatch(
      /^Cannot create the directory for the SQLite store .*: (EEXIST|ENOTDIR)/,
    );
  });

  it("a PostgreSQL server that refuses the connection, without the password", async () => {
    const error = await openError(() => openStore("postgres://sol:secret@127.0.0.1:1/sol"));
    expect(error.message).toBe(
      "Cannot reach the PostgreSQL store postgres://sol:***@127.0.0.1:1/sol: connect ECONNREFUSED 127.0.0.1:1",
    );
  });
});
