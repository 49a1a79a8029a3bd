// The Minecraft adapter (world/minecraft) is not re-exported: it loads mineflayer, which a
// server that never talks to Minecraft should not pay for. Import it from its own barrel.
export { createExecutor, type Executor, type ExecutorOptions, ignoreFirstTaskWhere } from "./executor.js";
export {
  AUTO_EAT_AT,
  addItems,
  createRandom,
  createSimState,
  createSimulatedWorld,
  DAY_TICKS,
  FOOD_VALUES,
  HOSTILE_SPAWN_CHANCE,
  HUNGER_INTERVAL_MS,
  isSimNight,
  MAX_HOSTILES,
  MS_PER_TICK,
  NIGHT_END_TICKS,
  NIGHT_START_TICKS,
  planSimTask,
  type Random,
  REGEN_INTERVAL_MS,
  RETREAT_HEALTH,
  type RealtimeDriverOptions,
  SIM_STEP_MS,
  type SimGameMode,
  type SimPlan,
  type SimState,
  type SimulatedWorld,
  type SimWorldOptions,
  simTimeOfDay,
  startRealtimeDriver,
  stepSim,
} from "./sim/index.js";
export { createHttpTaskApi, createServiceTaskApi, type ExecutorTaskApi } from "./task-api.js";
export {
  type ExecuteOptions,
  type ExecutionOutcome,
  type Position,
  taskGoal,
  type World,
  type WorldAdapter,
} from "./world-adapter.js";
