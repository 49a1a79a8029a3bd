import {
  createMemoryCalendarStore,
  createMemoryCheckpointStore,
  createMemoryReminderStore,
} from "@solserver/core";
import { describe } from "vitest";
import { checkpointStoreContract } from "./contract/checkpoints.js";
import { executorRecordContract } from "./contract/executor-records.js";

// The in-memory reference stores run the parts of the contract written against ports alone; the
// rest of the suite still opens stores by URL (see store-contract.ts).
describe("SolStore contract: memory", () => {
  executorRecordContract(async () => ({
    calendar: createMemoryCalendarStore(),
    reminders: createMemoryReminderStore(),
  }));
  checkpointStoreContract(async () => ({ checkpoints: createMemoryCheckpointStore() }));
});
