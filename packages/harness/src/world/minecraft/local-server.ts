import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SolError } from "@solserver/core";
import { SQUID_CHILD_SOURCE } from "./squid-child.js";

/** Minecraft version both flying-squid and mineflayer handle cleanly here (item drops included). */
export const DEFAULT_MINECRAFT_VERSION = "1.18.2";

export interface LocalMinecraftServerOptions {
  readonly version?: string;
  /** survival (gameMode 0) or creative (1). Default survival. */
  readonly mode?: "survival" | "creative";
  /** Oak log columns (3 logs each) planted near every joining player, 0..6. Default 6. */
  readonly treeColumns?: number;
  /** How long to wait for the server to be ready; default 30 s. */
  readonly startTimeoutMs?: number;
  /** Start attempts (a fresh free port each time); default 3. */
  readonly attempts?: number;
}

/** A flying-squid server in a child process on 127.0.0.1, offline mode. */
export interface LocalMinecraftServer {
  readonly host: "127.0.0.1";
  readonly port: number;
  readonly version: string;
  readonly mode: "survival" | "creative";
  /** Resolves with the number of logs planted for the next player that joins. */
  nextPlanting(timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

type ChildMessage =
  | { type: "ready"; port: number }
  | { type: "planted"; count: number }
  | { type: "error"; message: string };

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function startOnce(options: Required<LocalMinecraftServerOptions>): Promise<LocalMinecraftServer> {
  const require = createRequire(import.meta.url);
  const squidPath = require.resolve("flying-squid");
  const vec3Path = createRequire(squidPath).resolve("vec3");
  const port = await freePort();
  const worldDir = mkdtempSync(join(tmpdir(), "sol-squid-"));
  const child = spawn(process.execPath, ["-e", SQUID_CHILD_SOURCE], {
    cwd: worldDir,
    env: {
      ...process.env,
      SOL_SQUID_PATH: squidPath,
      SOL_SQUID_VEC3_PATH: vec3Path,
      SOL_SQUID_PORT: String(port),
      SOL_SQUID_VERSION: options.version,
      SOL_SQUID_GAMEMODE: options.mode === "creative" ? "1" : "0",
      SOL_SQUID_TREES: String(options.treeColumns),
      SOL_SQUID_WORLD: join(worldDir, "world"),
      CI: "1",
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  child.stdout?.resume();
  const plantings: ((count: number) => void)[] = [];
  const planted: number[] = [];
  child.on("message", (msg: ChildMessage) => {
    if (msg.type !== "planted") return;
    const waiter = plantings.shift();
    if (waiter) waiter(msg.count);
    else planted.push(msg.count);
  });

  const stop = async () => {
    if (child.connected) child.send({ type: "stop" });
    await waitForExit(child, 5000);
    rmSync(worldDir, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`flying-squid was not ready within ${options.startTimeoutMs} ms`)),
        options.startTimeoutMs,
      );
      const done = (error?: Error) => {
        clearTimeout(timer);
        child.off("message", onMessage);
        child.off("exit", onExit);
        if (error) reject(error);
        else resolve();
      };
      const onMessage = (msg: ChildMessage) => {
        if (msg.type === "ready") done();
        else if (msg.type === "error") done(new Error(msg.message));
      };
      const onExit = (code: number | null) => done(new Error(`flying-squid exited (${code}): ${stderr}`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    host: "127.0.0.1",
    port,
    version: options.version,
    mode: options.mode,
    nextPlanting(timeoutMs = 10_000) {
      const ready = planted.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no planting report")), timeoutMs);
        plantings.push((count) => {
          clearTimeout(timer);
          resolve(count);
        });
      });
    },
    stop,
  };
}

/**
 * Starts flying-squid on a free loopback port (offline mode, flat world, survival or creative) in
 * a child process, retrying with a new port when a start fails. `stop()` ends the child and
 * removes its world folder.
 */
export async function startLocalMinecraftServer(
  options: LocalMinecraftServerOptions = {},
): Promise<LocalMinecraftServer> {
  const settings = Object.freeze({
    version: DEFAULT_MINECRAFT_VERSION,
    mode: "survival" as const,
    treeColumns: 6,
    startTimeoutMs: 30_000,
    attempts: 3,
    ...options,
  });
  if (!Number.isInteger(settings.treeColumns) || settings.treeColumns < 0 || settings.treeColumns > 6) {
    throw new SolError("invalid_input", "treeColumns must be an integer in 0..6");
  }
  let lastError: unknown;
  for (let attempt = 1; attempt <= settings.attempts; attempt++) {
    try {
      return await startOnce(settings);
    } catch (error) {
      lastError = error;
    }
  }
  throw new SolError("unavailable", `Could not start a local Minecraft server: ${String(lastError)}`, {
    cause: lastError,
  });
}
