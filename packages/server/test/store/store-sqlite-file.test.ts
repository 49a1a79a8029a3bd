import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { runStoreContract } from "./store-contract.js";

const root = mkdtempSync(join(tmpdir(), "sol-store-"));
let n = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

runStoreContract(
  "sqlite file",
  async () => {
    n += 1;
    const caseDir = join(root, `case-${n}`);
    // A nested path: openStore must create the parent directories.
    return {
      url: `sqlite:${join(caseDir, "nested", "sol.db")}`,
      drop: async () => rmSync(caseDir, { recursive: true, force: true }),
    };
  },
  { sharedUrl: true },
);
