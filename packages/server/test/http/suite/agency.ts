import type { Thought } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ThoughtBroadcast } from "../../../src/index.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

/** A calm survival world with an empty inventory: the drive tick wants oak logs. */
export const CALM_WORLD = {
  health: 20,
  food: 20,
  hostiles: 0,
  gameMode: "survival",
  timeOfDay: 1000,
  inventory: {},
} as const;

const KEY_A = "agency-key-a";
const KEY_B = "agency-key-b";
const asA = { authorization: `Bearer ${KEY_A}` };
const asB = { authorization: `Bearer ${KEY_B}` };

/** Agency routes over HTTP: intake, recording fix, conversion, drive tick, tasks, counters, tenancy. */
export function agencySuite(backend: Backend): void {
  describe(`agency routes on ${backend}`, () => {
    let srv: TestServer;
    const broadcasts: ThoughtBroadcast[] = [];
    beforeAll(async () => {
      srv = await startTestServer({ backend, env: { SOL_API_KEYS: `alpha:${KEY_A},beta:${KEY_B}` } });
      srv.server.agency.events.on("thought", (b) => broadcasts.push(b));
    });
    afterAll(async () => {
      await srv.close();
    });

    const post = (path: string, body?: unknown, headers = asA) => srv.request("POST", path, body, headers);
    const get = (path: string, headers = asA) => srv.request("GET", path, undefined, headers);

    it("sanitizes a relayed model thought and counts its goal and intent, without converting it", async () => {
      const res = await post("/v1/thoughts", {
        text: "```\nThe hill looks interesting. [GOAL: explore hill]\nINTENT: explore\n```",
        source: "llm",
        metadata: { model: "scripted", nested: { dropped: true } },
      });
      expect(res.status).toBe(200);
      const thought = res.json.thought as Thought;
      expect(thought.text).toBe("The hill looks interesting.");
      expect(thought.metadata).toMatchObject({
        extractedGoal: { action: "explore", target: "hill" },
        extractedIntent: "explore",
        intentParse: "final_line",
        goalKey: "explore:hill",
        client: { model: "scripted" },
      });
      expect(thought.novelty).toBe("high");
      expect(res.json.decision).toEqual({ decision: "blocked_not_eligible", thoughtId: thought.id });
      expect(res.json.task).toBeUndefined();
      const counters = (await get("/v1/agency/counters")).json;
      expect(counters).toMatchObject({ llmCalls: 1, goalTags: 1, intentExtractions: 1, driveTicks: 0 });
    });

    it("converts a dev-injected convertEligible thought into a finalized task; a repeat is low novelty and never converts", async () => {
      const text = "I want to see the valley. [GOAL: explore valley]";
      const first = await post("/v1/thoughts", { text, convertEligible: true });
      expect(first.status).toBe(200);
      expect(first.json.decision).toMatchObject({ decision: "created", goalKey: "explore:valley" });
      const task = first.json.task;
      expect(task).toMatchObject({
        status: "pending",
        type: "exploration",
        progress: 0,
        metadata: {
          goalKey: "explore:valley",
          convertEligible: true,
          sourceThoughtId: first.json.thought.id,
          origin: { kind: "thought", thoughtId: first.json.thought.id },
        },
      });

      const before = (await get("/v1/agency/counters")).json;
      const again = await post("/v1/thoughts", { text, convertEligible: true });
      expect(again.json.thought).toMatchObject({ novelty: "low", convertEligible: false });
      expect(again.json.decision.decision).toBe("blocked_not_eligible");
      expect(again.json.task).toBeUndefined();
      const after = (await get("/v1/agency/counters")).json;
      expect(after.contentSuppressions).toBe(before.contentSuppressions + 1);
      expect(after.lowNoveltyRecorded).toBe(before.lowNoveltyRecorded + 1);
      // Task-worthy (it has a goal): always broadcast, flagged as fallback.
      expect(after.lowNoveltyBroadcast).toBe(before.lowNoveltyBroadcast + 1);
      const copy = broadcasts.find((b) => b.thought.id === again.json.thought.id);
      expect(copy?.thought.metadata.fallback).toBe(true);

      const history = (await get("/v1/thoughts?limit=500")).json.thoughts as { thought: Thought }[];
      expect(history.map((e) => e.thought.id)).toContain(again.json.thought.id);
      const tasks = (await get("/v1/tasks")).json.tasks as { metadata: { convertEligible?: boolean } }[];
      expect(tasks).toHaveLength(1);
      expect(tasks.every((t) => t.metadata.convertEligible === true)).toBe(true);
    });

    it("broadcasts one in five non-task-worthy low-novelty thoughts, all kept in history", async () => {
      const start = broadcasts.length;
      const ids: string[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await post("/v1/thoughts", { text: "It is very quiet around here today." });
        ids.push(res.json.thought.id);
      }
      const emitted = broadcasts.slice(start);
      expect(emitted.map((b) => b.thought.id)).toEqual([ids[0], ids[1], ids[6]]);
      expect(emitted.map((b) => b.thought.metadata.fallback)).toEqual([undefined, true, true]);
      const history = (await get("/v1/thoughts?limit=500")).json.thoughts as { thought: Thought }[];
      const kept = history.filter((e) => ids.includes(e.thought.id));
      expect(kept).toHaveLength(11);
      expect(kept.slice(1).every((e) => e.thought.novelty === "low")).toBe(true);
    });

    it("answers 400 with field paths for bad bodies and queries", async () => {
      const empty = await post("/v1/thoughts", {});
      expect(empty.status).toBe(400);
      expect(empty.json.error.code).toBe("invalid_input");
      expect(empty.json.error.details.map((d: { path: string }) => d.path)).toContain("text");
      const extra = await post("/v1/thoughts", { text: "hi", novelty: "high" });
      expect(extra.status).toBe(400);
      expect(JSON.stringify(extra.json.error.details)).toContain("novelty");
      const world = await post("/v1/agency/drive-tick", { world: { ...CALM_WORLD, health: "full" } });
      expect(world.status).toBe(400);
      expect(world.json.error.details.map((d: { path: string }) => d.path)).toContain("world.health");
      expect((await post("/v1/agency/drive-tick", {})).status).toBe(400);
      expect((await get("/v1/tasks?status=sleeping")).status).toBe(400);
      // An empty filter (api.md writes the route as `GET /v1/tasks?status=`) lists every task.
      const all = await get("/v1/tasks?status=");
      expect(all.status).toBe(200);
      expect(all.json.tasks).toEqual((await get("/v1/tasks")).json.tasks);
      expect((await post("/v1/tasks/nope/progress", { progress: 2 })).status).toBe(400);
    });

    it("fires a drive tick once, then waits for the interval; never fires in creative or spectator mode", async () => {
      const creative = await post("/v1/agency/drive-tick", {
        world: { ...CALM_WORLD, gameMode: "creative" },
      });
      expect(creative.json).toEqual({ fired: false, reason: "creative_mode" });
      const spectator = await post("/v1/agency/drive-tick", {
        world: { ...CALM_WORLD, gameMode: "spectator" },
      });
      expect(spectator.json).toEqual({ fired: false, reason: "spectator_mode" });
      const hurt = await post("/v1/agency/drive-tick", { world: { ...CALM_WORLD, health: 15 } });
      expect(hurt.json).toEqual({ fired: false, reason: "low_health" });
      const threatened = await post("/v1/agency/drive-tick", { world: { ...CALM_WORLD, hostiles: 1 } });
      expect(threatened.json).toEqual({ fired: false, reason: "hostiles_nearby" });
      expect((await get("/v1/agency/counters")).json.driveTicks).toBe(0);

      const fired = await post("/v1/agency/drive-tick", { world: CALM_WORLD });
      expect(fired.status).toBe(200);
      expect(fired.json.fired).toBe(true);
      expect(fired.json.thought).toMatchObject({
        cognitiveSystem: "drive-tick",
        novelty: "high",
        convertEligible: true,
        tags: ["drive-tick", "autonomous", "gathering"],
        metadata: { extractedGoalSource: "drive-tick", goalKey: "collect:oak_log" },
      });
      expect(fired.json.task).toMatchObject({
        status: "pending",
        parameters: { action: "collect", target: "oak_log", amount: 8 },
        metadata: {
          goalKey: "collect:oak_log",
          extractedGoalSource: "drive-tick",
          origin: { kind: "thought" },
        },
      });
      const again = await post("/v1/agency/drive-tick", { world: CALM_WORLD });
      expect(again.json).toEqual({ fired: false, reason: "interval" });
      expect((await get("/v1/agency/counters")).json.driveTicks).toBe(1);
    });

    it("moves tasks through claim, progress, complete and fail; refuses other moves with 409", async () => {
      const pending = (await get("/v1/tasks?status=pending")).json.tasks;
      expect(pending.length).toBeGreaterThanOrEqual(2);
      const [a, b] = pending;
      const claimed = await post(`/v1/tasks/${a.id}/claim`, { executor: "test-exec" });
      expect(claimed.status).toBe(200);
      expect(claimed.json.task).toMatchObject({ status: "active", metadata: { solver: "test-exec" } });
      const twice = await post(`/v1/tasks/${a.id}/claim`);
      expect(twice.status).toBe(409);
      expect(twice.json.error.code).toBe("invalid_transition");
      const progressed = await post(`/v1/tasks/${a.id}/progress`, { progress: 0.5 });
      expect(progressed.json.task.progress).toBe(0.5);
      expect((await post(`/v1/tasks/${b.id}/progress`, { progress: 0.5 })).status).toBe(409);
      const done = await post(`/v1/tasks/${a.id}/complete`);
      expect(done.json.task).toMatchObject({ status: "completed", progress: 1 });
      expect((await post(`/v1/tasks/${a.id}/fail`, { reason: "late" })).status).toBe(409);
      const failed = await post(`/v1/tasks/${b.id}/fail`, { reason: "no route" });
      expect(failed.json.task.status).toBe("failed");
      expect((await post("/v1/tasks/missing/claim")).status).toBe(404);
      expect((await get(`/v1/tasks/${a.id}`)).json).toMatchObject({ id: a.id, status: "completed" });
      // origin survives every move.
      expect(done.json.task.metadata.origin).toEqual(a.metadata.origin);
      const active = (await get("/v1/tasks?status=completed,failed")).json.tasks;
      expect(active.map((t: { id: string }) => t.id).sort()).toEqual([a.id, b.id].sort());
    });

    it("keeps counters monotonic until reset, which starts a new session", async () => {
      const one = (await get("/v1/agency/counters")).json;
      await post("/v1/thoughts", { text: "A fresh idea about caves. INTENT: mine", source: "llm" });
      const two = (await get("/v1/agency/counters")).json;
      for (const key of Object.keys(one)) expect(two[key]).toBeGreaterThanOrEqual(one[key]);
      expect(two.intentExtractions).toBe(one.intentExtractions + 1);
      const reset = await post("/v1/agency/counters/reset");
      expect(reset.status).toBe(200);
      expect(reset.json).toMatchObject({ llmCalls: 0, goalTags: 0, driveTicks: 0, contentSuppressions: 0 });
      expect((await get("/v1/agency/counters")).json.llmCalls).toBe(0);
    });

    it("keeps each tenant's tasks, thoughts and counters apart", async () => {
      expect((await get("/v1/tasks", asB)).json.tasks).toEqual([]);
      expect((await get("/v1/thoughts", asB)).json.thoughts).toEqual([]);
      expect((await get("/v1/agency/counters", asB)).json.driveTicks).toBe(0);
      const someTask = (await get("/v1/tasks")).json.tasks[0];
      expect((await post(`/v1/tasks/${someTask.id}/claim`, undefined, asB)).status).toBe(404);
      expect((await get(`/v1/tasks/${someTask.id}`, asB)).status).toBe(404);
      // B's first drive tick fires although A's already did: the interval is per tenant.
      expect((await post("/v1/agency/drive-tick", { world: CALM_WORLD }, asB)).json.fired).toBe(true);
      expect((await srv.request("GET", "/v1/tasks")).status).toBe(401);
    });
  });
}
