import { describe } from "vitest";
import { announcePgSkip, pgTestsDisabled } from "../support/pg.js";
import { threadRoutesSuite } from "./suite/threads.js";

// The SQLite file store runs on its store thread (the built dist/), so this covers the store across it.
threadRoutesSuite("sqlite-file");
// In-process: runs these sources rather than the built store thread.
threadRoutesSuite("sqlite-memory");

announcePgSkip("threads-postgres");
describe.skipIf(pgTestsDisabled())("threads on PostgreSQL", () => {
  threadRoutesSuite("postgres");
});
