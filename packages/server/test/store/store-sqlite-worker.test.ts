import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { openWorkerStore } from "../../src/store/worker/open-worker-store.js";
import { runStoreContract } from "./store-contract.js";

const root = mkdtempSync(join(tmpdir(), "sol-store-worker-"));
let n = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The same SQLite file backend, served from its own thread: every call crosses by structured clone.
runStoreContract(
  "sqlite file on a store thread",
  async () => {
    n += 1;
    const caseDir = join(root, `case-${n}`);
    return {
      url: `sqlite:${join(caseDir, "nested", "sol.db")}`,
      drop: async () => rmSync(caseDir, { recursive: true, force: true }),
    };
  },
  {
    sharedUrl: true,
    openStore: (url, options) => {
      const { poolMax: _poolMax, ...rest } = options;
      return openWorkerStore(url, rest);
    },
  },
);
