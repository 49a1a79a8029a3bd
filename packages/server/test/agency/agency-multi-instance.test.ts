import { createManualClock, DRIVE_TICK_INTERVAL_MS } from "@solserver/core";
import { afterEach, describe, expect, it } from "vitest";
import { announcePgSkip, createPgTestSchema, type PgTestSchema, pgTestsDisabled } from "../support/pg.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const T0 = Date.parse("2025-06-01T08:00:00.000Z");
const CALM_WORLD = {
  health: 20,
  food: 20,
  hostiles: 0,
  gameMode: "survival",
  timeOfDay: 1000,
  inventory: {},
};

const opened: TestServer[] = [];
const schemas: PgTestSchema[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(schemas.splice(0).map((s) => s.drop()));
});

/** Two servers on real sockets over one fresh PostgreSQL schema, sharing one manual clock. */
async function twoInstances() {
  const schema = await createPgTestSchema("sol_agency_two");
  schemas.push(schema);
  const clock = createManualClock(T0);
  const start = () => startTestServer({ backend: "postgres", dbUrl: schema.url, serverOptions: { clock } });
  const a = await start();
  opened.push(a);
  const b = await start();
  opened.push(b);
  return { a, b, clock };
}

const tick = (srv: TestServer) =>
  srv.request("POST", "/v1/agency/drive-tick", { world: CALM_WORLD }).then((r) => r.json);
const counters = (srv: TestServer) => srv.request("GET", "/v1/agency/counters").then((r) => r.json);

announcePgSkip("agency-multi-instance");
describe.skipIf(pgTestsDisabled())(
  "two server instances on one PostgreSQL database act as one agency",
  () => {
    it("a tick fired on A makes B's immediate tick answer interval; a repeat thought on B is deduped; counters agree", async () => {
      const { a, b } = await twoInstances();
      expect((await tick(a)).fired).toBe(true);
      expect(await tick(b)).toEqual({ fired: false, reason: "interval" });

      const first = await a.request("POST", "/v1/thoughts", {
        text: "The river bank is quiet this morning.",
      });
      expect(first.json.thought.novelty).toBe("high");
      const repeat = await b.request("POST", "/v1/thoughts", {
        text: "The river bank is quiet this morning!",
      });
      expect(repeat.json.thought).toMatchObject({ novelty: "low", convertEligible: false });

      const fromA = await counters(a);
      expect(fromA).toMatchObject({ driveTicks: 1, contentSuppressions: 1, lowNoveltyRecorded: 1 });
      expect(await counters(b)).toEqual(fromA);
      // The reset on one instance is the reset of both.
      const reset = await b.request("POST", "/v1/agency/counters/reset");
      expect(reset.json.driveTicks).toBe(0);
      expect(await counters(a)).toEqual(reset.json);
    });

    it("of concurrent drive ticks on A and B exactly one fires, round after round", async () => {
      const { a, b, clock } = await twoInstances();
      for (let round = 0; round < 4; round++) {
        const outcomes = await Promise.all([tick(a), tick(b)]);
        const fired = outcomes.filter((o) => o.fired === true);
        expect(fired).toHaveLength(1);
        expect(outcomes.find((o) => o.fired !== true)).toEqual({ fired: false, reason: "interval" });
        // Free the goal so the next round is judged by the timer alone.
        const taskId = fired[0].task.id as string;
        await a.request("POST", `/v1/tasks/${taskId}/claim`, { executor: "test" });
        await b.request("POST", `/v1/tasks/${taskId}/complete`);
        clock.advance(DRIVE_TICK_INTERVAL_MS);
      }
      expect((await counters(a)).driveTicks).toBe(4);
      expect((await counters(b)).driveTicks).toBe(4);
    });

    it("a situation A thought about is suppressed on B within the signature window", async () => {
      const { a, b, clock } = await twoInstances();
      const think = (srv: TestServer, world: object = CALM_WORLD) =>
        srv.request("POST", "/v1/agency/think", { world }).then((r) => r.json);
      const called = await think(a);
      expect(called).toMatchObject({ called: true, decision: { decision: "created" } });
      // Same bands (health 19 is still "full"): no model call on the other instance.
      const again = await think(b, { ...CALM_WORLD, health: 19 });
      expect(again).toMatchObject({ called: false, reason: "signature_dedup" });
      expect(again.thought).toMatchObject({ novelty: "low", convertEligible: false });
      // After the window the model is asked again; its same answer is then a content repeat.
      clock.advance(180_000);
      const later = await think(b);
      expect(later).toMatchObject({ called: true, thought: { novelty: "low" } });
      expect(await counters(a)).toMatchObject({
        llmCalls: 2,
        goalTags: 2,
        intentExtractions: 2,
        signatureSuppressions: 1,
        contentSuppressions: 1,
        lowNoveltyRecorded: 2,
      });
    });
  },
);
