import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptySnapshot } from "../src/index.js";
import { FileQueueStore } from "../src/node/index.js";

// FileQueueStore.load removes the temp files a crash left behind; only its own (`<file>.<id>.tmp`),
// not those of a store whose file name merely starts with the same name (a save of theirs in flight).

describe("FileQueueStore next to another store in the same folder", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "sol-queue-neighbours-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("leaves the temp files of queue.json.alice alone when queue.json loads", async () => {
    const own = "queue.json.5f0c1c52-0f3e-4b7e-9a55-0d3b1a4f0c11.tmp";
    const theirs = "queue.json.alice.0b8e6a0e-8d0f-4f6e-a0c4-6f3b5c1e2d77.tmp";
    await writeFile(join(dir, own), "{");
    await writeFile(join(dir, theirs), JSON.stringify(emptySnapshot()));
    expect(await new FileQueueStore({ path: join(dir, "queue.json") }).load()).toBeNull();
    expect(await readdir(dir)).toEqual([theirs]);
  });
});
