import {
  createMemoryCalendarStore,
  createMemoryMemoryStore,
  createMemoryReminderStore,
} from "@solserver/core";
import { describe } from "vitest";
import { executorRecordContract } from "./contract/executor-records.js";
import { memoryStoreContract } from "./contract/memories.js";

// The in-memory reference stores run the parts of the contract written against ports alone; the
// rest of the suite still opens stores by URL (see store-contract.ts).
describe("SolStore contract: memory", () => {
  executorRecordContract(async () => ({
    calendar: createMemoryCalendarStore(),
    reminders: createMemoryReminderStore(),
  }));
  memoryStoreContract(async () => createMemoryMemoryStore(), { stems: false });
});
