import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/index.js";
import { cleanEnv, ensureServerBuilt, runCli } from "../support/built-cli.js";

const serverRoot = fileURLToPath(new URL("../../", import.meta.url));

describe("sol CLI: help, migrate and bad configuration", () => {
  let dir: string;
  beforeAll(async () => {
    await ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), "sol-cli-"));
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("--help lists serve, chat, trace and migrate", async () => {
    const res = await runCli(["--help"]);
    expect(res.code).toBe(0);
    for (const command of ["serve", "chat", "trace", "migrate"]) {
      expect(res.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
    }
  });

  it("the package's bin is a committed launcher that npm links as `sol` and that runs the built CLI", async () => {
    // dist/ does not exist when npm links bins at install time; a bin pointing into it went unlinked.
    const pkg = JSON.parse(readFileSync(join(serverRoot, "package.json"), "utf8")) as {
      bin: { sol: string };
    };
    expect(pkg.bin.sol).toBe("./bin/sol.js");
    const linked = join(serverRoot, "../../node_modules/.bin/sol");
    expect(realpathSync(linked)).toBe(realpathSync(join(serverRoot, "bin/sol.js")));
    const res = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      execFile(linked, ["--help"], (error, stdout) =>
        error && typeof error.code !== "number" ? reject(error) : resolve({ code: error ? 1 : 0, stdout }),
      );
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^\s+serve\b/m);
  });

  it("migrate --db sqlite:<file> creates the tables, then reports the schema up to date", async () => {
    const file = join(dir, "nested", "sol.db");
    const first = await runCli(["migrate", "--db", `sqlite:${file}`]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`applied migrations ${MIGRATIONS.map((m) => m.version).join(", ")}`);

    const db = new Database(file, { readonly: true });
    try {
      const tables = (
        db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]
      ).map((t) => t.name);
      expect(tables).toEqual(
        expect.arrayContaining([
          "sol_migrations",
          "transmissions",
          "delivery_attempts",
          "messages",
          "mementos",
          "trace_events",
          "responses",
        ]),
      );
      const versions = db.prepare("select version from sol_migrations order by version").all();
      expect(versions).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    } finally {
      db.close();
    }

    const again = await runCli(["migrate", "--db", `sqlite:${file}`]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`up to date at schema version ${MIGRATIONS.length}`);
  });

  it("serve with a bad configuration prints what is wrong and exits non-zero", async () => {
    const badJson = join(dir, "bad.json");
    writeFileSync(badJson, "{ not json");
    const cases: { args: string[]; env?: Record<string, string>; says: string }[] = [
      { args: [], env: { SOL_PORT: "not-a-port" }, says: "SOL_PORT" },
      { args: ["--port", "70000"], says: "SOL_PORT" },
      {
        args: [],
        env: { SOL_LLM: "openai" },
        says: "SOL_LLM=openai needs SOL_LLM_BASE_URL and SOL_LLM_MODEL",
      },
      { args: ["--provider", "gpt"], says: "SOL_LLM" },
      { args: ["--db", "mysql://somewhere/db"], says: "Unsupported store URL" },
      { args: ["--config", join(dir, "missing.json")], says: "Cannot read config file" },
      { args: ["--config", badJson], says: "is not valid JSON" },
      {
        args: ["--db", "sqlite::memory:"],
        env: { SOL_MODES: join(dir, "no-modes.json") },
        says: "mode pack",
      },
      { args: ["--db", "sqlite::memory:"], env: { SOL_API_KEYS: "no-colon" }, says: "tenant:key" },
    ];
    for (const c of cases) {
      const res = await runCli(["serve", ...c.args], { env: cleanEnv(c.env) });
      expect(res.code, `${c.args.join(" ")} ${JSON.stringify(c.env)}`).toBe(1);
      expect(res.stderr).toMatch(/^sol: /);
      expect(res.stderr).toContain(c.says);
      expect(res.stdout).not.toContain("listening on");
    }
  }, 120_000);

  describe("serve on a port that is taken", () => {
    let blocker: Server;
    let port: number;
    beforeAll(async () => {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
      port = (blocker.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

    it("says the address is in use and exits non-zero after releasing the store", async () => {
      const res = await runCli(["serve", "--port", String(port), "--db", `sqlite:${join(dir, "busy.db")}`], {
        env: cleanEnv({ SOL_LOG_LEVEL: "silent" }),
      });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("EADDRINUSE");
    });
  });
});
