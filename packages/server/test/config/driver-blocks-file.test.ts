import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isSolError } from "@solserver/core";
import { afterAll, describe, expect, it } from "vitest";
import { createSolServer, loadConfig } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "sol-driver-blocks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error createSolServer refuses to start with for a SOL_DRIVER_BLOCKS file holding `text`. */
async function startError(name: string, text: string): Promise<Error> {
  const path = join(dir, name);
  writeFileSync(path, text);
  const config = loadConfig({ env: { SOL_DB_URL: "sqlite::memory:", SOL_DRIVER_BLOCKS: path } });
  const server = await createSolServer(config).catch((error: unknown) => error);
  if (!isSolError(server)) {
    await (server as { close?: () => Promise<void> }).close?.();
    throw new Error(`${name} was accepted`);
  }
  expect(server.code).toBe("invalid_input");
  return server;
}

// api.md §1: SOL_DRIVER_BLOCKS names a file of extra system Driver Blocks; a bad one stops the start.
describe("SOL_DRIVER_BLOCKS file", () => {
  it("refuses JSON that is not a list of blocks with a message naming the file", async () => {
    for (const [name, text] of [
      ["null.json", "null"],
      ["number.json", "7"],
      ["object.json", '{"block": []}'],
    ] as const) {
      const error = await startError(name, text);
      expect(error.message).toBe(
        `${join(dir, name)} must hold an array of Driver Blocks (or { "blocks": [...] }).`,
      );
    }
  });

  it("names the bad field of each invalid block", async () => {
    const error = await startError(
      "bad.json",
      JSON.stringify({
        blocks: [{ id: "ok", version: 1 }, { id: "no-version" }, { id: "x", version: 1, scope: "global" }],
      }),
    );
    expect(error.message).toContain("systemBlocks[1].version: ");
    expect(error.message).toContain("systemBlocks[2].scope: ");
  });

  it("names a pattern that cannot compile, at start rather than on each request that refs it", async () => {
    const error = await startError(
      "pattern.json",
      JSON.stringify([{ id: "house", version: 1, validators: { required: ["ok"], mustNot: ["*"] } }]),
    );
    expect(error.message).toBe(
      `Invalid driver blocks in ${join(dir, "pattern.json")}: systemBlocks[0].validators.mustNot[0]: pattern "*" is empty`,
    );
  });

  it("names the file and the file's own index when a block repeats a built-in one", async () => {
    const error = await startError(
      "repeat.json",
      JSON.stringify([
        { id: "house", version: 1 },
        { id: "facts-block", version: 1 },
      ]),
    );
    expect(error.message).toBe(
      `Invalid driver blocks in ${join(dir, "repeat.json")}: systemBlocks[1] repeats the built-in block facts-block@1`,
    );
  });
});
