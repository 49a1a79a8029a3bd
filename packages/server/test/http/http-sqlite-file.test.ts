import { actionGateSuite } from "./suite/action-gate.js";
import { actionProposalSuite } from "./suite/action-proposals.js";
import { agencySuite } from "./suite/agency.js";
import { chatTurnSuite } from "./suite/chat-turns.js";
import { checkpointTurnSuite } from "./suite/checkpoint-turns.js";
import { checkpointSuite } from "./suite/checkpoints.js";
import { flowPackTurnSuite } from "./suite/flow-pack-turns.js";
import { mementoTenancySuite } from "./suite/memento-tenancy.js";
import { providerPipelineSuite } from "./suite/provider-pipeline.js";

chatTurnSuite("sqlite-file");
checkpointSuite("sqlite-file");
checkpointTurnSuite("sqlite-file");
mementoTenancySuite("sqlite-file");
providerPipelineSuite("sqlite-file");
flowPackTurnSuite("sqlite-file");
actionGateSuite("sqlite-file");
actionProposalSuite("sqlite-file");
agencySuite("sqlite-file");
