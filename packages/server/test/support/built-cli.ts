import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** The built `sol` CLI that `npm start` and the package's `bin` run. */
export const CLI_PATH = join(repoRoot, "packages/server/dist/cli/main.js");

const PACKAGES = ["core", "server"] as const;

function newestMtime(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const full = join(dir, entry.name);
      return entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    }),
  );
}

function isFresh(): boolean {
  if (!existsSync(CLI_PATH)) return false;
  const sources = Math.max(...PACKAGES.map((p) => newestMtime(join(repoRoot, "packages", p, "src"))));
  return PACKAGES.every((p) => {
    const info = join(repoRoot, "packages", p, "dist/.tsbuildinfo");
    return existsSync(info) && statSync(info).mtimeMs >= sources;
  });
}

function runTsc(): Promise<void> {
  const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
  const args = [tsc, "-b", "packages/core/tsconfig.build.json", "packages/server/tsconfig.build.json"];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: repoRoot }, (error, stdout, stderr) =>
      error ? reject(new Error(`build failed: ${stdout}${stderr}`, { cause: error })) : resolve(),
    );
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * CI builds before testing; locally a missing or stale dist of core and server is rebuilt so the
 * CLI tests run this source. Test files run in parallel workers, so one build at a time (a lock
 * directory) keeps them from writing the same files at once.
 */
export async function ensureServerBuilt(): Promise<void> {
  if (isFresh()) return;
  const lock = join(tmpdir(), `sol-build-${createHash("sha1").update(repoRoot).digest("hex").slice(0, 12)}`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than any build is left over from a killed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 180_000)
        rmSync(lock, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    if (!isFresh()) await runTsc();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The environment without any SOL_* setting of the machine running the tests. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("SOL_")) env[key] = value;
  }
  return { ...env, ...extra };
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI to completion (asynchronously, so a server in this process keeps answering). */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: options.env ?? cleanEnv(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`sol ${args.join(" ")} did not finish: ${stdout}${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** A `sol serve` child process and the URL it printed. */
export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote so far. */
  output(): string;
  /** SIGTERM (graceful), then SIGKILL if it has not exited in time; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `sol serve` with `env` (SOL_PORT=0 picks a free port) and waits for its "listening on" line. */
export function startServeProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI_PATH, "serve"], {
    cwd: repoRoot,
    env: cleanEnv({ SOL_PORT: "0", SOL_HOST: "127.0.0.1", SOL_LOG_LEVEL: "warn", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`sol serve did not start in ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    const onData = (chunk: string) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child, output: () => output, stop });
      }
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sol serve exited with ${code} before listening: ${output}`));
    });
  });
}
