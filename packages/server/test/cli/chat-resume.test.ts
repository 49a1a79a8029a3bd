import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureServerBuilt, runCli, type ServeProcess, startServeProcess } from "../support/built-cli.js";

// README: `sol chat --thread ID` prints each reply with its memento changes.
describe("sol chat --thread on a thread that already has a memento", () => {
  let server: ServeProcess;
  beforeAll(async () => {
    await ensureServerBuilt();
    server = await startServeProcess({ SOL_DB_URL: "sqlite::memory:", SOL_RATE_LIMIT_PER_MIN: "0" });
  }, 180_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it("shows the changes against the stored memento instead of 'memento created'", async () => {
    const first = await runCli(["chat", "--url", server.url, "--thread", "resumed"], {
      input: "I need to plan my week\n",
    });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('memento created: arc "I need to plan my week"');

    const second = await runCli(["chat", "--url", server.url, "--thread", "resumed"], {
      input: "I decided to take the train\n",
    });
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain("memento created");
    expect(second.stdout).toMatch(/^ {2}decisions: \[\] -> \["I decided to take the train"\]$/m);
  });
});
