import { openWorkerStore } from "../../src/store/worker/open-worker-store.js";
import { runStoreContract } from "./store-contract.js";
import { sqliteFileDatabases } from "./support/sqlite-file-databases.js";

// The same SQLite file backend, served from its own thread: every call crosses by structured clone.
runStoreContract("sqlite file on a store thread", sqliteFileDatabases("sol-store-worker-"), {
  sharedUrl: true,
  openStore: (url, options) => {
    const { poolMax: _poolMax, ...rest } = options;
    return openWorkerStore(url, rest);
  },
});
