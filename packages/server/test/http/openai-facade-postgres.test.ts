import { describe } from "vitest";
import { announcePgSkip, pgTestsDisabled } from "../support/pg.js";
import { openAiFacadeUpstreamSuite } from "./suite/openai-facade-upstream.js";

// The store-heavy half of the facade (idempotent replay, memento CAS, window, tools) on PostgreSQL.
announcePgSkip("openai-facade-postgres");
describe.skipIf(pgTestsDisabled())("OpenAI facade on PostgreSQL", () => {
  openAiFacadeUpstreamSuite("postgres");
});
