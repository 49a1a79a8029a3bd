import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LlmProvider } from "@solserver/core";
import { createSolServer, loadConfig, type SolServer, type SolServerOptions } from "../../src/index.js";
import { createPgTestSchema } from "./pg.js";

export type Backend = "sqlite-memory" | "sqlite-file" | "postgres";
export const BACKENDS: readonly Backend[] = ["sqlite-memory", "sqlite-file", "postgres"];

/** A fresh database of the given kind and how to remove it. */
export async function makeDatabase(backend: Backend): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (backend === "sqlite-memory") return { url: "sqlite::memory:", cleanup: async () => {} };
  if (backend === "sqlite-file") {
    const dir = mkdtempSync(join(tmpdir(), "sol-http-"));
    return {
      url: `sqlite:${join(dir, "sol.db")}`,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = await createPgTestSchema("sol_http");
  return { url: schema.url, cleanup: schema.drop };
}

export interface HttpReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test helper returns parsed JSON for flexible assertions
  readonly json: any;
}

export interface TestServer {
  readonly url: string;
  readonly server: SolServer;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpReply>;
  close(): Promise<void>;
}

/** Starts a real server on a loopback port over a fresh database of `backend`. */
export async function startTestServer(options: {
  backend: Backend;
  env?: Record<string, string>;
  provider?: LlmProvider;
  executors?: SolServerOptions["executors"];
  /** Use this existing database (left in place on close) instead of a fresh one. */
  dbUrl?: string;
  /** Extra server options (clock, agency log and timers, ...). */
  serverOptions?: SolServerOptions;
}): Promise<TestServer> {
  const db = options.dbUrl
    ? { url: options.dbUrl, cleanup: async () => {} }
    : await makeDatabase(options.backend);
  const config = loadConfig({
    env: {
      SOL_PORT: "0",
      SOL_HOST: "127.0.0.1",
      SOL_DB_URL: db.url,
      SOL_RATE_LIMIT_PER_MIN: "0",
      SOL_MAX_CONCURRENT_PER_KEY: "0",
      ...options.env,
    },
  });
  const server = await createSolServer(config, {
    ...options.serverOptions,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.executors ? { executors: options.executors } : {}),
  });
  const url = await server.listen();
  return {
    url,
    server,
    async request(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === "string" ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)["content-type"] ??= "application/json";
      }
      const res = await fetch(new URL(path, url), init);
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
    async close() {
      await server.close();
      await db.cleanup();
    },
  };
}
