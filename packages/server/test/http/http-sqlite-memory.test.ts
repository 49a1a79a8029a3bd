import { actionGateSuite } from "./suite/action-gate.js";
import { actionProposalSuite } from "./suite/action-proposals.js";
import { agencySuite } from "./suite/agency.js";
import { chatTurnSuite } from "./suite/chat-turns.js";
import { checkpointTurnSuite } from "./suite/checkpoint-turns.js";
import { checkpointSuite } from "./suite/checkpoints.js";
import { flowPackTurnSuite } from "./suite/flow-pack-turns.js";
import { mementoTenancySuite } from "./suite/memento-tenancy.js";
import { providerPipelineSuite } from "./suite/provider-pipeline.js";

chatTurnSuite("sqlite-memory");
checkpointSuite("sqlite-memory");
checkpointTurnSuite("sqlite-memory");
mementoTenancySuite("sqlite-memory");
providerPipelineSuite("sqlite-memory");
flowPackTurnSuite("sqlite-memory");
actionGateSuite("sqlite-memory");
actionProposalSuite("sqlite-memory");
agencySuite("sqlite-memory");
