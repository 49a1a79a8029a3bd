import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { isSolError } from "@solserver/core";
import { afterAll, describe, expect, it } from "vitest";
import { createSolServer, loadConfig } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "sol-web-dir-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configWith(webDir: string) {
  return loadConfig({ env: { SOL_DB_URL: "sqlite::memory:", SOL_WEB_DIR: webDir } });
}

// README: SOL_WEB_DIR is the directory of the built web client served at `/`.
describe("SOL_WEB_DIR", () => {
  it("serves a directory given relative to the working directory", async () => {
    const web = join(dir, "web");
    mkdirSync(web);
    writeFileSync(join(web, "index.html"), "<h1>custom client</h1>");
    // @fastify/static refused a relative root ("root" option must be an absolute path).
    const server = await createSolServer(configWith(relative(process.cwd(), web)));
    try {
      const res = await server.app.inject({ method: "GET", url: "/" });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain("custom client");
    } finally {
      await server.close();
    }
  });

  it("refuses to start when it names no directory instead of serving no web client", async () => {
    const missing = join(dir, "missing");
    const error = await createSolServer(configWith(missing)).then(
      async (server) => {
        await server.close();
        return null;
      },
      (caught: unknown) => caught,
    );
    expect(isSolError(error) && error.code).toBe("invalid_input");
    expect((error as Error).message).toContain(`SOL_WEB_DIR ${missing} is not a directory`);
  });
});
