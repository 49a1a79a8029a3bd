import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI_PATH, ensureServerBuilt } from "../support/built-cli.js";

// The vendors' SDKs and the OTLP exporter cost megabytes of memory in every process that loads them,
// so the built server imports them only when a provider of theirs makes its first call (or tracing
// is configured). A module resolution hook in a child process reports each package as it is loaded.

const run = promisify(execFile);
const SERVER_INDEX = join(CLI_PATH, "../../index.js");
const WATCHED =
  /node_modules\/(@ai-sdk\/(anthropic|google)|@opentelemetry\/(exporter-trace-otlp-http|sdk-trace-node))\//;
const HOOK = `export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  const m = ${WATCHED}.exec(found.url);
  if (m) process.stderr.write("LOADED " + m[1] + "\\n");
  return found;
}`;
const REGISTER = `import { register } from "node:module";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;

async function events(script: string): Promise<string[]> {
  const { stderr } = await run(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(REGISTER)}`, "--input-type=module", "-e", script],
    { timeout: 60_000 },
  );
  return [...new Set(stderr.split("\n").filter((line) => /^(LOADED|AT) /.test(line)))];
}

beforeAll(ensureServerBuilt, 180_000);

describe("the built server loads a vendor SDK only when it is used", () => {
  it("imports neither SDK nor the OTLP exporter with the package, and one SDK on its provider's first call", async () => {
    const script = `
      const sol = await import(${JSON.stringify(SERVER_INDEX)});
      process.stderr.write("AT imported\\n");
      const provider = sol.createAnthropicProvider({ model: "m", apiKey: "k", baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0 });
      process.stderr.write("AT created\\n");
      await provider.complete({ messages: [{ role: "user", content: "hi" }] }).catch(() => {});
      process.stderr.write("AT called\\n");
    `;
    const seen = await events(script);
    expect(seen.slice(0, 2)).toEqual(["AT imported", "AT created"]);
    expect(seen).toContain("LOADED @ai-sdk/anthropic");
    expect(seen.indexOf("LOADED @ai-sdk/anthropic")).toBeGreaterThan(seen.indexOf("AT created"));
    expect(seen.filter((e) => e.startsWith("LOADED") && !e.includes("anthropic"))).toEqual([]);
  }, 60_000);
});
