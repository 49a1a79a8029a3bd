import { describe } from "vitest";
import { actionContract } from "./contract/actions.js";
import { agencyAddTaskContract } from "./contract/agency-add-task.js";
import { agencyTaskContract } from "./contract/agency-tasks.js";
import { checkpointSessionContract } from "./contract/checkpoint-sessions.js";
import { commitTurnContract } from "./contract/commit-turn.js";
import { executorRecordContract } from "./contract/executor-records.js";
import type { ContractOptions, MakeDatabase } from "./contract/harness.js";
import { useHarness } from "./contract/harness.js";
import { jsonKeyOrderContract } from "./contract/json-key-order.js";
import { mementoContract } from "./contract/mementos.js";
import { memoryStoreContract } from "./contract/memories.js";
import { messageContract } from "./contract/messages.js";
import { migrationContract } from "./contract/migrations.js";
import { tenancyContract } from "./contract/tenancy.js";
import { traceContract } from "./contract/traces.js";
import { transmissionContract } from "./contract/transmissions.js";
import { unstorableKeyContract } from "./contract/unstorable-keys.js";

export type { ContractDatabase, ContractOptions, MakeDatabase } from "./contract/harness.js";

/**
 * The one behaviour suite every SolStore backend must pass unchanged. `makeStore` returns a fresh,
 * empty database per test; the contract opens stores on its URL.
 */
export function runStoreContract(name: string, makeStore: MakeDatabase, options: ContractOptions): void {
  describe(`SolStore contract: ${name}`, () => {
    const harness = useHarness(makeStore, options.openStore);
    migrationContract(harness, options);
    transmissionContract(harness, options);
    messageContract(harness);
    mementoContract(harness, options);
    traceContract(harness, options);
    commitTurnContract(harness);
    tenancyContract(harness);
    actionContract(harness, options);
    checkpointSessionContract(harness, options);
    agencyTaskContract(harness);
    agencyAddTaskContract(harness);
    jsonKeyOrderContract(harness);
    unstorableKeyContract(harness);
    executorRecordContract(() => harness.open());
    memoryStoreContract(async () => (await harness.open()).memories, { stems: true });
  });
}
