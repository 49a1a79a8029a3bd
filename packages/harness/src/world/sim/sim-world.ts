import { type Clock, SolError, type Task } from "@solserver/core";
import type { ExecuteOptions, ExecutionOutcome, World, WorldAdapter } from "../world-adapter.js";
import { taskGoal } from "../world-adapter.js";
import { createRandom } from "./prng.js";
import {
  createSimState,
  SIM_STEP_MS,
  type SimGameMode,
  type SimState,
  simTimeOfDay,
  stepSim,
} from "./sim-state.js";
import { planSimTask, RETREAT_HEALTH, type SimPlan } from "./sim-tasks.js";

export interface SimWorldOptions {
  /** Seed of every random draw; same seed and same advance calls give the same world. Default 1. */
  readonly seed?: number;
  /** World clock at the start; default 2025-01-01T00:00:00Z. */
  readonly startMs?: number;
  /** Minecraft time of day at the start (ticks); default 1000 (morning). */
  readonly startTimeOfDay?: number;
  readonly gameMode?: SimGameMode;
  /** Starting inventory; default 8 bread. */
  readonly inventory?: Readonly<Record<string, number>>;
}

/** The simulator: a WorldAdapter whose clock moves only when it is advanced. */
export interface SimulatedWorld extends WorldAdapter {
  /** Steps the world (and any running task) forward to `timeMs`; never backwards. */
  advanceTo(timeMs: number): void;
  advance(ms: number): void;
  /** A copy of the current state. */
  state(): SimState;
}

interface Job {
  readonly plan: SimPlan;
  done: number;
  elapsedInUnitMs: number;
  readonly onProgress: ((progress: number) => void) | undefined;
  readonly finish: (outcome: ExecutionOutcome) => void;
}

const DEFAULTS = {
  seed: 1,
  startMs: Date.UTC(2025, 0, 1),
  startTimeOfDay: 1000,
  gameMode: "survival" as SimGameMode,
  inventory: { bread: 8 } as Readonly<Record<string, number>>,
};

/**
 * A deterministic Minecraft-like world: day and night, hunger and eating, regeneration, hostiles at
 * night in the open, an inventory, and task execution over world time (one task at a time) with
 * progress. Nothing moves until `advance`/`advanceTo` is called, so a test drives it exactly and a
 * soak drives it from a scaled wall clock (`startRealtimeDriver`).
 */
export function createSimulatedWorld(options: SimWorldOptions = {}): SimulatedWorld {
  const settings = Object.freeze({ ...DEFAULTS, ...options });
  if (!Number.isInteger(settings.seed)) throw new SolError("invalid_input", "seed must be an integer");
  const rng = createRandom(settings.seed);
  const state = createSimState({
    startMs: settings.startMs,
    startTicks: settings.startTimeOfDay,
    gameMode: settings.gameMode,
    inventory: settings.inventory,
  });
  let job: Job | null = null;
  let closed = false;
  // Requested world time; the state follows in whole steps, so chunking never loses time.
  let targetMs = state.timeMs;

  function stepJob(): void {
    if (job === null) return;
    const current = job;
    const end = (outcome: ExecutionOutcome) => {
      job = null;
      current.finish(outcome);
    };
    if (state.health < RETREAT_HEALTH) {
      end({ status: "failed", reason: "retreated: health too low" });
      return;
    }
    current.elapsedInUnitMs += SIM_STEP_MS;
    if (current.elapsedInUnitMs < current.plan.unitMs) return;
    const blocked = current.plan.requires(state);
    if (blocked !== null) {
      end({ status: "failed", reason: blocked });
      return;
    }
    current.done += 1;
    current.elapsedInUnitMs = 0;
    current.plan.unit(state, current.done);
    current.onProgress?.(current.done / current.plan.units);
    if (current.done >= current.plan.units) end({ status: "completed", detail: current.plan.label });
  }

  function advanceTo(timeMs: number): void {
    targetMs = Math.max(targetMs, timeMs);
    while (state.timeMs + SIM_STEP_MS <= targetMs) {
      stepSim(state, rng);
      stepJob();
    }
  }

  const clock: Clock = { now: () => state.timeMs };

  return {
    name: "sim",
    clock,
    advanceTo,
    advance: (ms) => advanceTo(targetMs + ms),
    state: () => structuredClone(state),

    async snapshot(): Promise<World> {
      return {
        health: state.health,
        food: state.food,
        hostiles: state.hostiles,
        gameMode: state.gameMode,
        timeOfDay: simTimeOfDay(state),
        hasShelterNearby: state.hasShelter,
        inventory: { ...state.inventory },
        worldTimeMs: state.timeMs,
      };
    },

    noPlanRoute(task: Task): string | null {
      const { action, target, amount } = taskGoal(task);
      const plan = planSimTask(action, target, amount);
      return typeof plan === "string" ? plan : null;
    },

    execute(task: Task, { signal, onProgress }: ExecuteOptions): Promise<ExecutionOutcome> {
      if (closed) return Promise.resolve({ status: "failed", reason: "world closed" });
      if (job !== null) return Promise.resolve({ status: "failed", reason: "busy with another task" });
      const { action, target, amount } = taskGoal(task);
      const plan = planSimTask(action, target, amount);
      if (typeof plan === "string") return Promise.resolve({ status: "failed", reason: plan });
      const blocked = plan.requires(state);
      if (blocked !== null) return Promise.resolve({ status: "failed", reason: blocked });
      return new Promise((resolve) => {
        const onAbort = () => {
          if (job === mine) job = null;
          resolve({ status: "failed", reason: "aborted" });
        };
        const mine: Job = {
          plan,
          done: 0,
          elapsedInUnitMs: 0,
          onProgress,
          finish: (outcome) => {
            signal.removeEventListener("abort", onAbort);
            resolve(outcome);
          },
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        job = mine;
      });
    },

    async close() {
      closed = true;
      const running = job;
      job = null;
      running?.finish({ status: "failed", reason: "world closed" });
    },
  };
}
