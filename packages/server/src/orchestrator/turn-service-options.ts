import type {
  ActionNeeded,
  CheckpointStore,
  Clock,
  DriverBlockStore,
  EmbeddingProvider,
  IdGenerator,
  LlmProvider,
  MemoryStore,
  PinnedContextStore,
  SolStore,
} from "@solserver/core";
import type { SolMetrics } from "../observability/metrics.js";
import type { ProposedAction } from "./proposed-action.js";
import type { TraceBuffer } from "./trace-buffer.js";
import type { TurnEngines } from "./turn-engines.js";

/** Extra context for a turn (checkpoint injections); plugged in by later features. */
export type ContextInjector = (args: {
  readonly tenantId: string;
  readonly threadId: string;
  /** The turn's idempotency key: a re-run of a failed turn carries the same one. */
  readonly requestId: string;
  readonly message: string;
  readonly isFirstTurn: boolean;
  readonly trace: TraceBuffer;
}) => Promise<readonly string[]>;

/** Hook that stores proposed actions (the permission gate); plugged in by later features. */
export type ActionRecorder = (args: {
  readonly tenantId: string;
  readonly threadId: string;
  readonly messageId: string;
  /** The turn's requestId (also every proposal's `requestId`). */
  readonly requestId: string;
  /** The user's message, so the gate can tell whether the user asked for an action again. */
  readonly message: string;
  readonly proposals: readonly ProposedAction[];
  readonly trace: TraceBuffer;
}) => Promise<readonly ActionNeeded[]>;

export interface TurnServiceOptions {
  readonly store: SolStore;
  readonly provider: LlmProvider;
  readonly engines: TurnEngines;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly windowSize: number;
  /** The model's context window in tokens (default 128,000): the breakpoint's contextWindowPressure. */
  readonly contextTokens?: number;
  /** Share of `contextTokens` past which a prompt counts as pressure (default 0.8). */
  readonly contextPressureShare?: number;
  /** How long a duplicate request waits for its in-flight twin. */
  readonly idempotencyWaitMs?: number;
  /**
   * A running turn's lease on its transmission (default 10 s), renewed every third of it: a retry of
   * the same requestId takes the turn over once the lease lapsed (its process died), never before.
   */
  readonly turnLeaseMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly contextInjector?: ContextInjector;
  readonly actionRecorder?: ActionRecorder;
  /** Where a turn that needs a checkpoint keeps its capsule; none keeps no checkpoints. */
  readonly checkpoints?: CheckpointStore;
  /** The tenant's explicit memories, ranked by the retrieval phase (none: only other threads' mementos). */
  readonly memories?: MemoryStore;
  /** Where a packet's `pinnedContextRef` resolves; none answers such a packet with 404. */
  readonly pinnedContexts?: PinnedContextStore;
  /** The tenants' approved Driver Blocks; the enabled ones apply to every turn like inline blocks. */
  readonly driverBlocks?: DriverBlockStore;
  /** How much the retrieval phase injects (default: the top 5 within 600 estimated tokens). */
  readonly retrieval?: { readonly topN: number; readonly maxTokens: number };
  /** An optional embedding ranker fused with the lexical one (off when absent). */
  readonly embeddings?: EmbeddingProvider;
  /** Where turn and phase metrics go (default: nowhere). Spans go to the OpenTelemetry API either way. */
  readonly metrics?: SolMetrics;
}
