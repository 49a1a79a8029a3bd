import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isSolError } from "@solserver/core";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig, readConfigFile } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "sol-config-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

// sol serve --config F: a sol.config.json holds the environment's keys and nothing else.
describe("sol.config.json keys", () => {
  it("reads the settings it knows (and a $schema key)", () => {
    const path = writeConfig("ok.json", { $schema: "./x.json", SOL_PORT: 9100, SOL_LLM: "offline" });
    expect(loadConfig({ file: readConfigFile(path) }).SOL_PORT).toBe(9100);
  });

  it("refuses a key that is not a setting, naming it and the setting it probably meant", () => {
    const path = writeConfig("typo.json", { SOL_PROT: 9100, sol_llm: "openai", colour: "blue" });
    let error: unknown = null;
    try {
      readConfigFile(path);
    } catch (caught) {
      error = caught;
    }
    expect(isSolError(error) && error.code).toBe("invalid_input");
    const message = (error as Error).message;
    expect(message).toContain(`Config file ${path} has keys that are not settings`);
    expect(message).toContain("SOL_PROT (did you mean SOL_PORT?)");
    expect(message).toContain("sol_llm (did you mean SOL_LLM?)");
    expect(message).toMatch(/colour(?! \(did)/);
    expect(message).not.toContain("not valid JSON");
  });
});
