import { describe } from "vitest";
import { announcePgSkip, pgTestsDisabled } from "../support/pg.js";
import { memorySuite } from "./suite/memories.js";

// Fails when PostgreSQL is unreachable, unless SOL_TEST_NO_PG=1 says this machine has none.
announcePgSkip("memories-postgres");
describe.skipIf(pgTestsDisabled())("memories on PostgreSQL", () => {
  memorySuite("postgres");
});
