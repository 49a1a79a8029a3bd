import { seededRandom } from "@solserver/core";
import { echoEnvelope, type ScriptedUpstream, startScriptedUpstream } from "@solserver/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureServerBuilt, type ServeProcess, startServeProcess } from "../support/built-cli.js";
import { announcePgSkip, createPgTestSchema, type PgTestSchema, pgTestsDisabled } from "../support/pg.js";
import { isSelectorRequest } from "../support/scripted-model.js";
import { deliver, type Fleet, type TurnRecord } from "./fleet-load.js";

// The fleet test of issue 24: three `sol serve` processes on one PostgreSQL schema behind no balancer
// but the load generator itself, which spreads turns over them with duplicates of some requestIds sent
// to two instances at once, several clients per thread (memento compare-and-swap contention). One
// process is killed (SIGKILL) mid-load with turns in flight and restarted; its clients retry their
// requests on the others, as the client SDK's queue does. Then, read over HTTP as a client would:
// nothing lost, nothing doubled, no 5xx (nor any 409 or 429), every copy of a requestId got the same
// answer, and the killed process's turns were taken over once their lease lapsed.

const LEASE_MS = 2000;
const INSTANCES = 3;
const THREADS = 4;
const CLIENTS_PER_THREAD = 3;
const TURNS_PER_CLIENT = 5;
const KILL_AFTER_DONE = 20;

announcePgSkip("fleet-postgres");
describe.skipIf(pgTestsDisabled())("a fleet of three processes on one PostgreSQL", () => {
  let schema: PgTestSchema;
  let upstream: ScriptedUpstream;
  let env: Record<string, string>;
  const fleet: Fleet = { instances: [] };
  const started: ServeProcess[] = [];
  const random = seededRandom(24);

  beforeAll(async () => {
    await ensureServerBuilt();
    schema = await createPgTestSchema("sol_fleet");
    // A model that takes 150–450 ms per reply, so turns are in flight when the process dies.
    const delays = seededRandom(7);
    upstream = await startScriptedUpstream({
      record: false,
      fallback: (req) =>
        isSelectorRequest(req)
          ? { kind: "json", body: { modeLabel: "assist", confidence: 0.9, reasons: ["scripted"] } }
          : { kind: "json", body: echoEnvelope(req), delayMs: 150 + Math.floor(delays() * 300) },
    });
    env = {
      SOL_DB_URL: schema.url,
      SOL_LLM: "openai",
      SOL_LLM_BASE_URL: upstream.url,
      SOL_LLM_MODEL: "scripted",
      SOL_LLM_MAX_RETRIES: "0",
      SOL_TURN_LEASE_MS: String(LEASE_MS),
      SOL_METRICS: "1",
    };
    for (let i = 0; i < INSTANCES; i += 1) {
      const server = await startServeProcess(env);
      started.push(server);
      fleet.instances.push(server);
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await upstream?.close();
    await schema?.drop();
  });

  it("loses nothing, doubles nothing and answers no 5xx through a kill -9 and a restart", async () => {
    const turns: TurnRecord[] = [];
    let killedAt: number | undefined;
    let done = 0;
    let killed: Promise<void> | undefined;
    const killOne = async () => {
      const victim = fleet.instances[1] as ServeProcess;
      fleet.instances[1] = null;
      victim.child.kill("SIGKILL");
      killedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const restarted = await startServeProcess(env);
      started.push(restarted);
      fleet.instances[1] = restarted;
    };
    const client = async (thread: number, client: number) => {
      for (let n = 0; n < TURNS_PER_CLIENT; n += 1) {
        const turn: TurnRecord = {
          requestId: `fleet-${thread}-${client}-${n}`,
          threadId: `fleet-thread-${thread}`,
          message: `Client ${client} of thread ${thread}, turn ${n}: plan the next step.`,
          copies: [],
        };
        turns.push(turn);
        const first = deliver(fleet, random, turn, () => killedAt);
        // One turn in four is sent twice at once, the second copy to another instance.
        const twin =
          random() < 0.25 ? deliver(fleet, random, turn, () => killedAt, turn.copies[0]?.instance) : null;
        await Promise.all([first, twin]);
        done += 1;
        if (done === KILL_AFTER_DONE) killed = killOne();
      }
    };
    const clients: Promise<void>[] = [];
    for (let t = 0; t < THREADS; t += 1)
      for (let c = 0; c < CLIENTS_PER_THREAD; c += 1) clients.push(client(t, c));
    await Promise.all(clients);
    await killed;

    const base = (fleet.instances.find((s) => s !== null) as ServeProcess).url;
    const copies = turns.flatMap((t) => t.copies);
    const statuses = new Map<string, number>();
    for (const c of copies) statuses.set(String(c.status), (statuses.get(String(c.status)) ?? 0) + 1);
    const taken = turns.filter((t) => t.lostToKillAt !== undefined);
    const takeoverMs = taken.map((t) => (t.doneAt ?? Number.POSITIVE_INFINITY) - (t.lostToKillAt ?? 0));
    console.info(
      `fleet: ${turns.length} turns, ${copies.length} copies, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `${taken.length} turns lost to the kill, taken over in ${takeoverMs.map((ms) => `${ms} ms`).join(", ")} (lease ${LEASE_MS} ms)`,
    );

    // Every turn answered; every copy that reached a live process got a 200 (no 409, 429 nor 5xx).
    expect(killedAt).toBeDefined();
    expect(turns.every((t) => t.final !== undefined)).toBe(true);
    expect([...statuses.keys()].filter((s) => s !== "200" && s !== "network_error")).toEqual([]);
    // Every copy of one requestId got the same answer.
    for (const turn of turns) {
      const answers = new Set(
        turn.copies.filter((c) => c.status === 200).map((c) => JSON.parse(c.body).assistant.messageId),
      );
      expect(answers.size, turn.requestId).toBe(1);
    }
    // The killed process had turns in flight; each was taken over once its lease lapsed, not minutes later.
    expect(taken.length).toBeGreaterThan(0);
    for (const ms of takeoverMs) expect(ms).toBeLessThan(LEASE_MS + 8000);

    // Nothing lost, nothing doubled: each thread holds each of its turns once, user then assistant.
    for (let t = 0; t < THREADS; t += 1) {
      const res = await fetch(`${base}/v1/threads/fleet-thread-${t}/messages?limit=100`);
      const { messages } = (await res.json()) as {
        messages: { role: string; content: string; messageId: string }[];
      };
      const mine = turns.filter((turn) => turn.threadId === `fleet-thread-${t}`);
      expect(messages.length).toBe(mine.length * 2);
      for (const turn of mine) {
        expect(
          messages.filter((m) => m.role === "user" && m.content === turn.message).length,
          turn.requestId,
        ).toBe(1);
        expect(messages.filter((m) => m.messageId === turn.final?.messageId).length, turn.requestId).toBe(1);
      }
    }
  }, 300_000);
});
