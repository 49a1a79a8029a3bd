import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileQueueStore } from "../src/node/index.js";
import { type FaultProxy, startFaultProxy } from "./support/fault-proxy.js";
import { startTestServer, TENANT, type TestServer, threadMessages } from "./support/real-server.js";

// Real processes killed with SIGKILL: the children import the built client (dist), so build first;
// `tsc -b` only rebuilds what changed.

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const support = (name: string) => fileURLToPath(new URL(`./support/${name}`, import.meta.url));
let dir: string;

beforeAll(async () => {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", "packages/client/tsconfig.build.json"], { cwd: repoRoot });
  dir = await mkdtemp(join(tmpdir(), "sol-crash-"));
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Child {
  readonly process: ChildProcess;
  /** Resolves with the first stdout line for which `match` returns a value. */
  waitFor<T>(match: (line: string) => T | undefined): Promise<T>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly stderr: () => string;
  /** Every stdout line so far. */
  readonly lines: () => readonly string[];
}

function run(script: string, args: string[]): Child {
  const child = spawn(process.execPath, [support(script), ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiters = new Set<(line: string) => void>();
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    for (const waiter of waiters) waiter(line);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    process: child,
    exited,
    stderr: () => stderr,
    lines: () => lines,
    waitFor: <T>(match: (line: string) => T | undefined) =>
      new Promise<T>((resolve, reject) => {
        const seen = lines.map(match).find((v) => v !== undefined);
        if (seen !== undefined) return resolve(seen);
        const waiter = (line: string) => {
          const value = match(line);
          if (value === undefined) return;
          waiters.delete(waiter);
          resolve(value);
        };
        waiters.add(waiter);
        void exited.then(({ code, signal }) =>
          reject(new Error(`child exited (${code ?? signal}) before the expected line; stderr: ${stderr}`)),
        );
      }),
  };
}

const event =
  <T>(name: string) =>
  (line: string): T | undefined => {
    const parsed = JSON.parse(line) as { event?: string };
    return parsed.event === name ? (parsed as T) : undefined;
  };

interface Enqueued {
  items: Array<{ threadId: string; message: string; requestId: string; transmissionId: string }>;
}
interface Drained {
  transmissions: Array<{
    requestId: string;
    threadId: string;
    status: string;
    attempts: string[];
    answer: string | null;
  }>;
}

const THREADS = ["thread-0", "thread-1", "thread-2", "thread-3"];
const PER_THREAD = 6;

describe("crash and restart (SIGKILL) against SolServer", () => {
  let srv: TestServer;
  let proxy: FaultProxy;
  beforeAll(async () => {
    srv = await startTestServer({ backend: "sqlite-file" });
    proxy = await startFaultProxy({ target: { host: "127.0.0.1", port: Number(new URL(srv.url).port) } });
  });
  afterAll(async () => {
    await proxy?.close();
    await srv?.close();
  });

  const serverCount = () => srv.server.store.transmissions.count(TENANT);

  it("a queue killed mid-flight twice resumes from its file with nothing lost or doubled at the server", async () => {
    const storePath = join(dir, "queue.json");
    const total = THREADS.length * PER_THREAD;

    // Kill 1: from the 8th request on, the server's answers are held back; the child is killed as
    // soon as the first held answer arrives, i.e. after the server committed a turn the client never saw.
    proxy.setMode((n) => (n < 7 ? "pass" : "hold"));
    const first = run("queue-child.mjs", [
      storePath,
      proxy.url,
      "enqueue",
      String(THREADS.length),
      String(PER_THREAD),
    ]);
    const killed = new Promise<void>((resolve) =>
      proxy.setOnHold(() => {
        first.process.kill("SIGKILL");
        resolve();
      }),
    );
    const enqueued = await first.waitFor(event<Enqueued>("enqueued"));
    expect(enqueued.items).toHaveLength(total);
    await killed;
    expect((await first.exited).signal).toBe("SIGKILL");
    proxy.setOnHold(null);
    proxy.setMode("pass");

    // The file says "sending" for a turn the server has committed: the answer was lost with the process.
    const afterKill = await new FileQueueStore({ path: storePath }).load();
    const inFlight = afterKill!.transmissions.filter((t) => t.status === "sending");
    const committedButUnseen: string[] = [];
    for (const t of inFlight) {
      const record = await srv.server.store.transmissions.getByRequestId(TENANT, t.requestId);
      if (record?.status === "succeeded") committedButUnseen.push(t.requestId);
    }
    expect(committedButUnseen.length).toBeGreaterThan(0);
    expect(await serverCount()).toBeLessThan(total);

    // Kill 2: a resumed child is killed at an arbitrary moment, a few turns further on.
    const countAtSecond = await serverCount();
    const second = run("queue-child.mjs", [storePath, proxy.url, "resume"]);
    while ((await serverCount()) < countAtSecond + 4) await new Promise((resolve) => setTimeout(resolve, 2));
    second.process.kill("SIGKILL");
    expect((await second.exited).signal).toBe("SIGKILL");
    expect(await serverCount()).toBeLessThan(total);

    // The third process drains what is left.
    const third = run("queue-child.mjs", [storePath, proxy.url, "resume"]);
    const drained = await third.waitFor(event<Drained>("drained"));
    expect(await third.exited).toEqual({ code: 0, signal: null });

    const requestIds = enqueued.items.map((i) => i.requestId);
    expect(drained.transmissions.map((t) => t.requestId)).toEqual(requestIds);
    expect(drained.transmissions.every((t) => t.status === "succeeded")).toBe(true);
    // Exactly once at the server: one transmission per requestId, run by one successful attempt.
    expect(await serverCount()).toBe(total);
    for (const requestId of requestIds) {
      const record = await srv.server.store.transmissions.getByRequestId(TENANT, requestId);
      expect(record?.deliveryAttempts.map((a) => a.status)).toEqual(["succeeded"]);
    }
    // In enqueue order per thread, each answered once with the answer the client kept.
    for (const threadId of THREADS) {
      const stored = await threadMessages(srv, threadId);
      const mine = enqueued.items.filter((i) => i.threadId === threadId);
      expect(stored.filter((m) => m.role === "user").map((m) => m.content)).toEqual(
        mine.map((i) => i.message),
      );
      expect(stored.filter((m) => m.role === "assistant").map((m) => m.messageId)).toEqual(
        drained.transmissions.filter((t) => t.threadId === threadId).map((t) => t.answer),
      );
    }
    // The turns committed before kill 1 were resent with their requestId after a restart and
    // answered as replays; their record shows the interrupted try.
    for (const requestId of committedButUnseen) {
      const t = drained.transmissions.find((d) => d.requestId === requestId);
      expect(t?.attempts[0]).toBe("interrupted");
      expect(t?.attempts.at(-1)).toBe("succeeded");
    }
    const replayed = [first, second, third].flatMap((child) =>
      child
        .lines()
        .map(event<{ requestId: string }>("replayed"))
        .flatMap((e) => (e ? [e.requestId] : [])),
    );
    expect(replayed).toEqual(expect.arrayContaining(committedButUnseen));
  }, 120_000);
});

describe("FileQueueStore under SIGKILL", () => {
  it("a FileQueueStore killed while saving always leaves a complete snapshot", async () => {
    // Kill points spread over the save cycle (just after a save, and a few ms into the next one).
    for (const [killAfter, delayMs] of [
      [3, 0],
      [6, 1],
      [9, 3],
      [12, 6],
      [15, 10],
      [18, 15],
    ] as const) {
      const storePath = join(dir, `atomic-${killAfter}.json`);
      const writer = run("store-writer-child.mjs", [storePath]);
      let lastSaved = 0;
      await writer.waitFor((line) => {
        lastSaved = Number(line.split(" ")[1]);
        return lastSaved >= killAfter * 200 ? true : undefined;
      });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      writer.process.kill("SIGKILL");
      await writer.exited;
      const corrupt: unknown[] = [];
      const loaded = await new FileQueueStore({
        path: storePath,
        onCorrupt: (info) => corrupt.push(info),
      }).load();
      expect(corrupt).toEqual([]);
      expect(loaded).not.toBeNull();
      // Every save that reported success is there; at most the one in progress was added.
      expect(loaded!.messages.length).toBeGreaterThanOrEqual(lastSaved);
      expect(loaded!.messages.length % 200).toBe(0);
      expect(loaded!.messages.at(-1)?.messageId).toBe(`msg_${loaded!.messages.length - 1}`);
    }
  });
});
