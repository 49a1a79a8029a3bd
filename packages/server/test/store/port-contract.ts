import { actionContract } from "./contract/actions.js";
import { agencyPortContract } from "./contract/agency-ports.js";
import { agencyStateContract } from "./contract/agency-state.js";
import { checkpointSessionContract } from "./contract/checkpoint-sessions.js";
import { commitTurnContract } from "./contract/commit-turn.js";
import { commitTurnServedContract } from "./contract/commit-turn-served.js";
import { executorRecordContract } from "./contract/executor-records.js";
import type { PortContractOptions, PortHarness } from "./contract/harness.js";
import { jsonKeyOrderContract } from "./contract/json-key-order.js";
import { mementoContract } from "./contract/mementos.js";
import { messageContract } from "./contract/messages.js";
import { readThreadContract } from "./contract/read-thread.js";
import { tenancyContract } from "./contract/tenancy.js";
import { traceContract } from "./contract/traces.js";
import { transmissionLeaseContract } from "./contract/transmission-leases.js";
import { transmissionContract } from "./contract/transmissions.js";
import { unstorableKeyContract } from "./contract/unstorable-keys.js";

/**
 * The part of the store contract written against the ports alone: every backend, the in-memory
 * reference stores included, must pass it unchanged.
 */
export function runPortContract(harness: PortHarness, options: PortContractOptions): void {
  transmissionContract(harness, options);
  transmissionLeaseContract(harness, options);
  messageContract(harness);
  mementoContract(harness, options);
  traceContract(harness, options);
  commitTurnContract(harness);
  commitTurnServedContract(harness);
  readThreadContract(harness);
  tenancyContract(harness);
  actionContract(harness, options);
  checkpointSessionContract(harness, options);
  agencyPortContract(harness);
  agencyStateContract(harness, options);
  jsonKeyOrderContract(harness);
  unstorableKeyContract(harness);
  executorRecordContract(() => harness.open());
}
