import { describe } from "vitest";
import { announcePgSkip, createPgTestSchema, pgTestsDisabled } from "../support/pg.js";
import { runStoreContract } from "./store-contract.js";

// PostgreSQL is part of the supported matrix: when it is unreachable these tests fail, unless
// SOL_TEST_NO_PG=1 says this machine has none.
announcePgSkip("store-postgres");
describe.skipIf(pgTestsDisabled())("PostgreSQL backend", () => {
  runStoreContract(
    "postgres (schema per test)",
    async () => {
      const schema = await createPgTestSchema("sol_store");
      return { url: schema.url, drop: schema.drop };
    },
    { sharedUrl: true },
  );
});
