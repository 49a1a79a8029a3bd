import type {
  CheckpointStore,
  DriverBlockStore,
  LlmProvider,
  MemoryStore,
  PinnedContextStore,
  PolicyEngine,
  SolStore,
  ThreadStore,
} from "@solserver/core";
import type { ActionGate } from "../actions/index.js";
import type { AgencyService } from "../agency/index.js";
import type { SolConfig } from "../config/index.js";
import type { CheckpointService } from "../cra/index.js";
import type { SolMetrics } from "../observability/metrics.js";
import type { TurnService } from "../orchestrator/turn-service.js";
import type { CalendarStore, ReminderStore } from "../store/index.js";

/** Everything the HTTP layer is built from; assembled by `createSolServer`. */
export interface AppDeps {
  readonly config: SolConfig;
  readonly store: SolStore;
  readonly provider: LlmProvider;
  readonly turns: TurnService;
  readonly actions: ActionGate;
  readonly reminders: ReminderStore;
  readonly calendar: CalendarStore;
  /** Threads as users see them (`/v1/threads`). */
  readonly threads: ThreadStore;
  /** The tenant's explicit memories (`/v1/memories`). */
  readonly memories: MemoryStore;
  /** Threads' persisted checkpoint capsules (`GET /v1/threads/:id/checkpoints`). */
  readonly threadCheckpoints: CheckpointStore;
  /** Pinned contexts (`/v1/pinned-contexts`). */
  readonly pinnedContexts: PinnedContextStore;
  /** Runtime-created Driver Blocks (`/v1/driver-blocks`). */
  readonly driverBlocks: DriverBlockStore;
  /** The turns' policy engine: its limits bound how many stored blocks may be on. */
  readonly policy: PolicyEngine;
  /** CRA checkpoint evaluations (`POST /v1/checkpoints/evaluate`). */
  readonly checkpoints: CheckpointService;
  /** The agency pipeline (thoughts, drive ticks, tasks, counters). */
  readonly agency: AgencyService;
  /** Prometheus metrics (`GET /metrics` when SOL_METRICS=1); NO_METRICS otherwise. */
  readonly metrics: SolMetrics;
}
