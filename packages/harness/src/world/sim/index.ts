export { createRandom, type Random } from "./prng.js";
export { type RealtimeDriverOptions, startRealtimeDriver } from "./realtime.js";
export {
  AUTO_EAT_AT,
  addItems,
  createSimState,
  DAY_TICKS,
  FOOD_VALUES,
  HOSTILE_SPAWN_CHANCE,
  HUNGER_INTERVAL_MS,
  isSimNight,
  MAX_HOSTILES,
  MS_PER_TICK,
  NIGHT_END_TICKS,
  NIGHT_START_TICKS,
  REGEN_INTERVAL_MS,
  SIM_STEP_MS,
  type SimGameMode,
  type SimState,
  simTimeOfDay,
  stepSim,
} from "./sim-state.js";
export { planSimTask, RETREAT_HEALTH, type SimPlan } from "./sim-tasks.js";
export { createSimulatedWorld, type SimulatedWorld, type SimWorldOptions } from "./sim-world.js";
