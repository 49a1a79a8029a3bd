import type { LlmProvider } from "@solserver/core";
import type { SolServerOptions } from "../../../../server/src/index.js";
import { startTestServer, type TestServer } from "../../../../server/test/support/test-server.js";
import { ensureWebDist } from "./web-dist.js";

/**
 * A real SolServer (SQLite in memory, offline provider unless `provider` is given, e.g. one over a
 * scripted upstream) serving the current web build at `/`; `executors` replaces or wraps the action
 * executors (e.g. a failing one).
 */
export async function startWebServer(
  options: {
    executors?: SolServerOptions["executors"];
    env?: Record<string, string>;
    provider?: LlmProvider;
  } = {},
): Promise<TestServer> {
  const webDir = await ensureWebDist();
  return startTestServer({
    backend: "sqlite-memory",
    env: { SOL_WEB_DIR: webDir, ...options.env },
    ...(options.executors ? { executors: options.executors } : {}),
    ...(options.provider ? { provider: options.provider } : {}),
  });
}
