import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redact } from "../../src/store/drivers/store-url.js";
import { ensureServerBuilt, runCli } from "../support/built-cli.js";
import { announcePgSkip, createPgTestSchema, type PgTestSchema, pgTestsDisabled } from "../support/pg.js";

describe("redact", () => {
  it("hides the password of the user info and of pg's ?password= parameter", () => {
    expect(redact("postgres://sol:s3cret@db:5432/sol")).toBe("postgres://sol:***@db:5432/sol");
    expect(redact("postgres://sol@db/sol?sslmode=require&password=s3cret&schema=a")).toBe(
      "postgres://sol@db/sol?sslmode=require&password=***&schema=a",
    );
    expect(redact("postgresql://db/sol?PASSWORD=s3cret")).toBe("postgresql://db/sol?PASSWORD=***");
    expect(redact("sqlite:./data/sol.db")).toBe("sqlite:./data/sol.db");
  });
});

announcePgSkip("sol migrate on PostgreSQL");
describe.skipIf(pgTestsDisabled())("sol migrate on PostgreSQL", () => {
  let pg: PgTestSchema;
  beforeAll(async () => {
    await ensureServerBuilt();
    pg = await createPgTestSchema("sol_migrate");
  }, 180_000);
  afterAll(() => pg?.drop());

  it("does not print a password given as ?password= (pg reads it from there)", async () => {
    const url = new URL(pg.url);
    url.searchParams.set("password", "hunter2");
    const res = await runCli(["migrate", "--db", url.toString()]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("applied migrations 1,");
    expect(res.stdout).toContain("password=***");
    expect(res.stdout).not.toContain("hunter2");
  });
});
