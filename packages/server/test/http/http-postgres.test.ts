import { describe } from "vitest";
import { announcePgSkip, pgTestsDisabled } from "../support/pg.js";
import { actionBindingSuite } from "./suite/action-binding.js";
import { actionGateSuite } from "./suite/action-gate.js";
import { actionProposalSuite } from "./suite/action-proposals.js";
import { agencySuite } from "./suite/agency.js";
import { chatTurnSuite } from "./suite/chat-turns.js";
import { checkpointTurnSuite } from "./suite/checkpoint-turns.js";
import { checkpointSuite } from "./suite/checkpoints.js";
import { flowPackTurnSuite } from "./suite/flow-pack-turns.js";
import { mementoTenancySuite } from "./suite/memento-tenancy.js";
import { providerPipelineSuite } from "./suite/provider-pipeline.js";
import { traceAnchorSuite } from "./suite/trace-anchors.js";

// Fails when PostgreSQL is unreachable, unless SOL_TEST_NO_PG=1 says this machine has none.
announcePgSkip("http-postgres");
describe.skipIf(pgTestsDisabled())("HTTP contract on PostgreSQL", () => {
  chatTurnSuite("postgres");
  checkpointSuite("postgres");
  checkpointTurnSuite("postgres");
  mementoTenancySuite("postgres");
  providerPipelineSuite("postgres");
  flowPackTurnSuite("postgres");
  actionGateSuite("postgres");
  actionBindingSuite("postgres");
  traceAnchorSuite("postgres");
  actionProposalSuite("postgres");
  agencySuite("postgres");
});
