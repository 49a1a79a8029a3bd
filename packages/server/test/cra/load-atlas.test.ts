import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCheckpointEngine, createManualClock, isSolError, type SolError } from "@solserver/core";
import { afterAll, describe, expect, it } from "vitest";
import { runServe } from "../../src/cli/serve-command.js";
import { DEFAULT_ATLAS, loadAtlas } from "../../src/cra/index.js";
import { undefinedContextIds } from "../../src/cra/load-atlas.js";
import { createSolServer, loadConfig } from "../../src/index.js";
import { EXAMPLE_ATLAS_PATH } from "../support/atlas.js";

const dir = mkdtempSync(join(tmpdir(), "sol-atlas-load-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function atlasFile(content: unknown): string {
  const path = join(dir, `atlas-${++files}.json`);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

/** The SolError loadAtlas throws for a file. */
function loadError(path: string): SolError {
  try {
    loadAtlas(path);
  } catch (error) {
    if (isSolError(error)) return error;
    throw error;
  }
  throw new Error(`loadAtlas(${path}) did not throw`);
}

const regexAtlas = (pattern: string) => ({
  checkpoint_config: { keyword_match: { match_mode: "regex", keywords: { [pattern]: ["c"] } } },
  context_blocks: [{ context_id: "c", name: "C", content: "c" }],
});

describe("loadAtlas", () => {
  it("uses the built-in atlas when SOL_ATLAS is unset: always blocks at start, confirmation before deletes", async () => {
    const atlas = loadAtlas(undefined);
    expect(atlas.atlas_id).toBe(DEFAULT_ATLAS.atlas_id);
    const engine = createCheckpointEngine({ atlas, clock: createManualClock(0) });
    const session = engine.createSession("s");
    const start = await engine.evaluate(session, { type: "session_start" });
    expect(start.injectContext).toHaveLength(2);
    const del = await engine.evaluate(session, { type: "action_pre", action: { type: "delete_account" } });
    expect(del.continue).toBe(false);
    expect(del.requireConfirmation?.action_kind).toBe("delete_account");
    const deploy = await engine.evaluate(session, { type: "action_pre", action: { type: "deploy_site" } });
    expect(deploy.continue).toBe(false);
    const read = await engine.evaluate(session, { type: "action_pre", action: { type: "read_file" } });
    expect(read).toMatchObject({
      continue: true,
      fired: [{ type: "action_pre", priority: 700 }],
      injectContext: [],
    });
  });

  it("loads the shipped example atlas", () => {
    const atlas = loadAtlas(EXAMPLE_ATLAS_PATH);
    expect(atlas.checkpoint_config.count_interval).toMatchObject({ enabled: true, actions: 3 });
    expect(atlas.checkpoint_config.action_pre.actions["delete_*"]?.require_confirmation).toBe(true);
    expect(atlas.context_blocks.map((b) => b.context_id)).toContain("vib3-geometry-system");
  });

  it("names the file and the bad field", () => {
    const path = atlasFile({ checkpoint_config: { count_interval: { actions: 0 } } });
    const error = loadError(path);
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(path);
    expect(error.message).toContain("SOL_ATLAS");
    expect(error.message).toContain("checkpoint_config.count_interval.actions");
    expect(error.details).toEqual([
      expect.objectContaining({ path: ["checkpoint_config", "count_interval", "actions"] }),
    ]);
  });

  it("accepts context ids no block defines (the spec's example does) and lists them", () => {
    const atlas = loadAtlas(
      atlasFile({ checkpoint_config: { session_start: { inject_contexts: ["ghost", "ghost", "other"] } } }),
    );
    expect(undefinedContextIds(atlas)).toEqual(["ghost", "other"]);
    expect(undefinedContextIds(loadAtlas(undefined))).toEqual([]);
  });

  it("reports a missing file and a file that is not JSON", () => {
    const missing = join(dir, "nope.json");
    expect(loadError(missing).message).toMatch(new RegExp(`Cannot read the atlas file ${missing}`));
    const broken = atlasFile("{ not json");
    const error = loadError(broken);
    expect(error.message).toContain(broken);
    expect(error.message).toContain("not valid JSON");
  });

  it("lists at most ten issues in the message and all of them in details", () => {
    const blocks = Array.from({ length: 15 }, () => ({ context_id: "", name: "x", content: "x" }));
    const error = loadError(atlasFile({ context_blocks: blocks }));
    expect(error.message).toContain("and 5 more");
    expect(error.details).toHaveLength(15);
  });

  it.each([
    ["a backreference", "(a+)+\\1"],
    ["a backreference in a lookahead", "(?=(a+))\\1b"],
    ["a quantified lookbehind", "(?<=a+)*b"],
    ["an exploding counted repetition", "((a{1,100}){1,100}){1,100}"],
  ])("rejects a catastrophic regex (%s) at load, naming the pattern", (_name, pattern) => {
    const error = loadError(atlasFile(regexAtlas(pattern)));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(`checkpoint_config.keyword_match.keywords.${pattern}`);
    expect((error.details as { code: string }[])[0]?.code).toMatch(/^regex_/);
  });

  it("rejects a catastrophic regex in a context block's keywords too", () => {
    const error = loadError(
      atlasFile({
        context_blocks: [
          {
            context_id: "c",
            name: "C",
            content: "c",
            checkpoint_config: { match_mode: "regex", keywords: ["ok", "(x+)+\\1"] },
          },
        ],
      }),
    );
    expect(error.message).toContain("context_blocks.0.checkpoint_config.keywords.1");
  });
});

describe("server start with SOL_ATLAS", () => {
  const bad = () => atlasFile({ checkpoint_config: { keyword_match: { match_mode: "sometimes" } } });

  it("createSolServer refuses a bad atlas before opening the store", async () => {
    const path = bad();
    const dbDir = mkdtempSync(join(dir, "db-"));
    const config = loadConfig({ env: { SOL_ATLAS: path, SOL_DB_URL: `sqlite:${join(dbDir, "sol.db")}` } });
    const start = createSolServer(config);
    await expect(start).rejects.toThrow(path);
    await expect(start).rejects.toThrow("checkpoint_config.keyword_match.match_mode");
    expect(existsSync(join(dbDir, "sol.db"))).toBe(false);
  });

  it("sol serve fails with the same message", async () => {
    const path = bad();
    const saved = { SOL_ATLAS: process.env.SOL_ATLAS };
    process.env.SOL_ATLAS = path;
    try {
      const serve = runServe({ db: "sqlite::memory:", port: "0" });
      await expect(serve).rejects.toThrow(`Invalid atlas file ${path} (SOL_ATLAS)`);
    } finally {
      if (saved.SOL_ATLAS === undefined) delete process.env.SOL_ATLAS;
      else process.env.SOL_ATLAS = saved.SOL_ATLAS;
    }
  });
});
