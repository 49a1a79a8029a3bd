import { describe } from "vitest";
import { agencyAddTaskContract } from "./contract/agency-add-task.js";
import { agencyTaskContract } from "./contract/agency-tasks.js";
import { checkpointStoreContract } from "./contract/checkpoints.js";
import { driverBlockStoreContract } from "./contract/driver-blocks.js";
import type { ContractOptions, MakeDatabase } from "./contract/harness.js";
import { useHarness } from "./contract/harness.js";
import { memoryStoreContract } from "./contract/memories.js";
import { migrationContract } from "./contract/migrations.js";
import { pinnedContextStoreContract } from "./contract/pinned-contexts.js";
import { sqlActionContract } from "./contract/sql-actions.js";
import { runPortContract } from "./port-contract.js";

export type { ContractDatabase, ContractOptions, MakeDatabase } from "./contract/harness.js";

/**
 * The one behaviour suite every SQL SolStore backend must pass unchanged: the port-level contract
 * (which the in-memory stores pass too) plus what only SQL has (migrations, the raw tables, the SQL
 * task store's own methods). `makeStore` returns a fresh, empty database per test; the contract
 * opens stores on its URL.
 */
export function runStoreContract(name: string, makeStore: MakeDatabase, options: ContractOptions): void {
  describe(`SolStore contract: ${name}`, () => {
    const harness = useHarness(makeStore, options.openStore);
    migrationContract(harness, options);
    runPortContract(harness, options);
    sqlActionContract(harness);
    agencyTaskContract(harness);
    agencyAddTaskContract(harness);
    checkpointStoreContract(() => harness.open());
    pinnedContextStoreContract(() => harness.open());
    driverBlockStoreContract(() => harness.open());
    memoryStoreContract(async () => (await harness.open()).memories, { stems: true });
  });
}
