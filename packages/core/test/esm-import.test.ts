import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { validMemento } from "./fixtures/valid-memento.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const coreDir = join(repoRoot, "packages/core");
const distIndex = join(coreDir, "dist/index.js");
const buildInfo = join(coreDir, "dist/.tsbuildinfo");

function newestMtime(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const full = join(dir, entry.name);
      return entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    }),
  );
}

// CI builds before testing; locally a missing or stale dist is rebuilt so the test checks this source.
function ensureBuilt(): void {
  const fresh =
    existsSync(distIndex) &&
    existsSync(buildInfo) &&
    statSync(buildInfo).mtimeMs >= newestMtime(join(coreDir, "src"));
  if (fresh) return;
  const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "packages/core/tsconfig.build.json"], {
    cwd: repoRoot,
    stdio: "pipe",
  });
}

const script = `
import { decideBreakpointAction, isAckOnlyMessage, shouldFreezeSummaryAtPeak, ThreadMementoV02 } from "@solserver/core";
const memento = ${JSON.stringify(validMemento())};
console.log(JSON.stringify({
  resolved: import.meta.resolve("@solserver/core"),
  skip: decideBreakpointAction({ message: "ok thanks", signalKinds: ["ack_only"] }),
  must: decideBreakpointAction({ message: "ok thanks", signalKinds: ["decision_made"] }),
  ack: isAckOnlyMessage("Sounds good!"),
  freeze: shouldFreezeSummaryAtPeak({ phase: "peak", decision: "should" }),
  accepts: ThreadMementoV02.safeParse(memento).success,
  rejects: ThreadMementoV02.safeParse({ ...memento, arc: "" }).success,
}));
`;

describe("@solserver/core as a published ESM package", () => {
  beforeAll(ensureBuilt, 120_000);

  it("imports from node_modules/@solserver/core, resolving to dist, and works", () => {
    const stdout = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(JSON.parse(stdout)).toEqual({
      resolved: pathToFileURL(distIndex).href,
      skip: "skip",
      must: "must",
      ack: true,
      freeze: true,
      accepts: true,
      rejects: false,
    });
  });
});
