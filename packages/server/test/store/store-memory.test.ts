import {
  createInMemoryAgencyStore,
  createInMemoryCheckpointStore,
  createInMemoryDriverBlockStore,
  createInMemoryMemoryStore,
  createInMemoryPinnedContextStore,
  createInMemorySolStore,
  createManualClock,
  type InMemorySolStore,
} from "@solserver/core";
import { beforeEach, describe } from "vitest";
import { checkpointStoreContract } from "./contract/checkpoints.js";
import { driverBlockStoreContract } from "./contract/driver-blocks.js";
import type { PortHarness } from "./contract/harness.js";
import { memoryStoreContract } from "./contract/memories.js";
import { pinnedContextStoreContract } from "./contract/pinned-contexts.js";
import { runPortContract } from "./port-contract.js";
import { T0 } from "./support/samples.js";

/** One in-memory store per test; every open() reaches it, as stores opened on one URL share data. */
function useInMemoryHarness(): PortHarness {
  let store: InMemorySolStore | null = null;
  beforeEach(() => {
    store = createInMemorySolStore({ clock: createManualClock(Date.parse(T0)) });
  });
  const current = (): InMemorySolStore => {
    if (store === null) throw new Error("harness used outside a test");
    return store;
  };
  return {
    open: async () => current(),
    // With options, a task store of its own: the tests that pass them use only the agency store.
    agency: (_store, options) =>
      options === undefined ? current().agency : createInMemoryAgencyStore(options),
  };
}

// The in-memory reference stores run the port-level contract, the same one as the SQL backends.
describe("SolStore contract: memory", () => {
  runPortContract(useInMemoryHarness(), { sharedUrl: true });
  checkpointStoreContract(async () => ({ checkpoints: createInMemoryCheckpointStore() }));
  pinnedContextStoreContract(async () => ({ pinnedContexts: createInMemoryPinnedContextStore() }));
  driverBlockStoreContract(async () => ({ driverBlocks: createInMemoryDriverBlockStore() }));
  memoryStoreContract(async () => createInMemoryMemoryStore(), { stems: false });
});
