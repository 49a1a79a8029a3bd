import {
  AGENCY_COUNTER_NAMES,
  type AgencyCounters,
  createManualClock,
  findSuppressingTask,
  type Task,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAgencyService } from "../../src/agency/index.js";
import { createAgencyStore, openStore } from "../../src/store/index.js";

const TEXTS = [
  "Let me look around the meadow. [GOAL: explore meadow]",
  "Let me look around the meadow. [GOAL: explore meadow]",
  "The cave mouth is dark but promising. [GOAL: find cave]\nINTENT: explore",
  "I need more wood for the winter. [GOAL: collect oak_log 4]",
  "Quiet day, nothing planned. INTENT: none",
  "Maybe craft a table? [GOAL: craft crafting_table]",
];

const Op = fc.oneof(
  fc.record({
    kind: fc.constant("thought" as const),
    text: fc.constantFrom(...TEXTS),
    eligible: fc.option(fc.boolean(), { nil: undefined }),
    llm: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("tick" as const),
    gameMode: fc.constantFrom("survival", "survival", "creative", "spectator"),
    health: fc.integer({ min: 10, max: 20 }),
    logs: fc.integer({ min: 0, max: 20 }),
  }),
  fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 1000, max: 240_000 }) }),
  fc.record({ kind: fc.constant("work" as const), pick: fc.nat(), finish: fc.boolean() }),
);

describe("agency service content dedup", () => {
  it("treats thoughts with different goals as new, even when the text around the tag is the same or empty", async () => {
    const sql = await openStore("sqlite::memory:");
    let n = 0;
    const agency = createAgencyService({
      store: createAgencyStore(sql, { warn: () => {} }),
      clock: createManualClock(1_700_000_000_000),
      ids: (p) => `${p}-${++n}`,
      production: false,
    });
    const submit = async (text: string) => {
      const res = await agency.submitThought("default", { text, convertEligible: true });
      if (!res.ok) throw new Error("valid body refused");
      return res.value;
    };
    try {
      for (const text of [
        "[GOAL: mine stone 4]",
        "[GOAL: smelt iron_ore 2]",
        "I should go now. [GOAL: find village]",
        "I should go now. [GOAL: eat bread]",
      ]) {
        const { thought, decision } = await submit(text);
        expect(thought).toMatchObject({ novelty: "high", convertEligible: true });
        expect(decision.decision).toBe("created");
      }
      // The same goal again is still a repeat.
      const again = await submit("[GOAL: mine stone 4]");
      expect(again.thought).toMatchObject({ novelty: "low", convertEligible: false });
      expect((await agency.counters("default")).contentSuppressions).toBe(1);
    } finally {
      await sql.close();
    }
  });
});

describe("agency service invariants (property)", () => {
  it("no low-novelty or ineligible thought ever becomes a task; goals are never held twice; counters only grow", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(Op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const clock = createManualClock(1_700_000_000_000);
        const sql = await openStore("sqlite::memory:");
        let n = 0;
        const agency = createAgencyService({
          store: createAgencyStore(sql, { warn: () => {} }),
          clock,
          ids: (p) => `${p}-${++n}`,
          production: false,
        });
        const lowThoughts = new Set<string>();
        const known: Task[] = [];
        agency.events.on("task", ({ task, change }) => {
          if (change === "created" && task.metadata.goalKey !== undefined) {
            const live = known.filter((t) => t.id !== task.id);
            expect(findSuppressingTask(live, task.metadata.goalKey, task.metadata.createdAt)).toBeUndefined();
          }
          const i = known.findIndex((t) => t.id === task.id);
          if (i >= 0) known[i] = task;
          else known.push(task);
        });
        let previous: AgencyCounters = await agency.counters("default");
        try {
          for (const op of ops) {
            if (op.kind === "thought") {
              const body = {
                text: op.text,
                ...(op.llm ? { source: "llm" } : {}),
                ...(op.eligible === undefined ? {} : { convertEligible: op.eligible }),
              };
              const res = await agency.submitThought("default", body);
              if (!res.ok) throw new Error("valid body refused");
              const { thought, task } = res.value;
              if (thought.novelty === "low" || thought.convertEligible !== true) {
                lowThoughts.add(thought.id);
                expect(task).toBeUndefined();
              }
            } else if (op.kind === "tick") {
              const world = {
                health: op.health,
                food: 20,
                hostiles: 0,
                gameMode: op.gameMode,
                inventory: op.logs > 0 ? { oak_log: op.logs } : {},
              };
              const before = (await agency.counters("default")).driveTicks;
              const out = await agency.driveTick("default", world);
              if (op.gameMode !== "survival" || op.health < 16) expect(out.fired).toBe(false);
              expect((await agency.counters("default")).driveTicks).toBe(before + (out.fired ? 1 : 0));
            } else if (op.kind === "advance") {
              clock.advance(op.ms);
            } else {
              const open = await agency.listTasks("default", ["pending", "active"]);
              const target = open[op.pick % Math.max(1, open.length)];
              if (target !== undefined) {
                if (target.status === "pending") await agency.claimTask("default", target.id, "prop");
                else if (op.finish) await agency.completeTask("default", target.id);
                else await agency.reportProgress("default", target.id, 0.5);
              }
            }
            const now = await agency.counters("default");
            for (const name of AGENCY_COUNTER_NAMES) expect(now[name]).toBeGreaterThanOrEqual(previous[name]);
            previous = now;
          }
          const tasks = await agency.listTasks("default");
          for (const task of tasks) {
            expect(task.metadata.convertEligible).toBe(true);
            expect(lowThoughts.has(task.metadata.sourceThoughtId ?? "")).toBe(false);
            expect(task.metadata.goalKey).not.toBe("");
            expect(task.metadata.origin?.kind).toBe("thought");
          }
        } finally {
          await sql.close();
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
