import { createManualClock, SolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { createAgencyService } from "../../src/agency/index.js";
import { type AgencyStore, createAgencyStore, openStore } from "../../src/store/index.js";

const CALM = { health: 20, food: 20, hostiles: 0, gameMode: "survival", inventory: {} };

/** The real agency store, with the next `failures` thought appends failing as a database would. */
function flakyThoughts(store: AgencyStore, failures: { left: number }): AgencyStore {
  return {
    tasks: store.tasks,
    state: store.state,
    thoughts: {
      ...store.thoughts,
      append: (tenantId, entry) => {
        if (failures.left > 0) {
          failures.left--;
          return Promise.reject(new SolError("unavailable", "The store is unavailable."));
        }
        return store.thoughts.append(tenantId, entry);
      },
    },
  };
}

async function setup() {
  const sql = await openStore("sqlite::memory:");
  const failures = { left: 1 };
  let n = 0;
  const agency = createAgencyService({
    store: flakyThoughts(createAgencyStore(sql, { warn: () => {} }), failures),
    clock: createManualClock(1_700_000_000_000),
    ids: (p) => `${p}-${++n}`,
    production: false,
  });
  return { sql, agency };
}

// A request that fails leaves no trace in the session state: the recording history (content
// dedup and novelty, contract §4) and the counters (§5) only see thoughts that were stored.
describe("agency service when a write fails", () => {
  it("a thought whose write failed is not in the dedup history, so its retry is not low novelty", async () => {
    const { sql, agency } = await setup();
    try {
      const body = { text: "Quiet morning by the river.", source: "llm" };
      await expect(agency.submitThought("default", body)).rejects.toThrow(/unavailable/);
      expect(await agency.counters("default")).toMatchObject({ llmCalls: 0, contentSuppressions: 0 });
      const retry = await agency.submitThought("default", body);
      expect(retry.ok && retry.value.thought.novelty).toBe("high");
      expect(await agency.counters("default")).toMatchObject({ llmCalls: 1, contentSuppressions: 0 });
    } finally {
      await sql.close();
    }
  });

  it("a drive tick whose write failed does not count, and does not hold back the next tick", async () => {
    const { sql, agency } = await setup();
    try {
      await expect(agency.driveTick("default", CALM)).rejects.toThrow(/unavailable/);
      expect((await agency.counters("default")).driveTicks).toBe(0);
      const again = await agency.driveTick("default", CALM);
      // The task of the failed attempt was stored, so it holds the goal; the tick is not "interval".
      expect(again).toEqual({ fired: false, reason: "duplicate_goal" });
    } finally {
      await sql.close();
    }
  });
});
