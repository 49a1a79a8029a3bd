import { execFile } from "node:child_process";
import { rmdirSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const run = promisify(execFile);

// Agency contract §7.1: "Run: ./scripts/soak-test-agency.sh 12", results in
// docs/testing/soak-results/soak-<timestamp>.log.
describe("./scripts/soak-test-agency.sh", () => {
  it("runs the soak for the given minutes and writes its log where the contract says", async () => {
    const { stdout } = await run(
      "./scripts/soak-test-agency.sh",
      ["0.02", "--mode", "creative", "--time-scale", "240", "--quiet"],
      { cwd: repo, timeout: 120_000 },
    );
    const log = /RESULT: PASS \(log: (.+)\)$/m.exec(stdout)?.[1];
    expect(log).toMatch(/\/docs\/testing\/soak-results\/soak-[0-9T-]+Z\.log$/);
    if (log !== undefined) rmSync(log);
    // Leave no empty folders behind (rmdir refuses a folder that holds anything).
    for (const dir of ["docs/testing/soak-results", "docs/testing", "docs"]) {
      try {
        rmdirSync(resolve(repo, dir));
      } catch {
        break;
      }
    }
  }, 120_000);

  it("hands the minutes to the soak (0 is refused with the usage line)", async () => {
    const failed = await run("./scripts/soak-test-agency.sh", ["0"], { cwd: repo }).catch((e) => e);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/minutes/);
    expect(failed.stderr).toMatch(/usage: npm run soak/);
  }, 120_000);
});
