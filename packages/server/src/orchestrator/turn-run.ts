import type { LlmCallPurpose, LlmResponse, PacketInput, TransmissionRecord } from "@solserver/core";
import type { SolMetrics } from "../observability/metrics.js";
import type { ThreadReads } from "./thread-reads.js";
import type { TraceBuffer } from "./trace-buffer.js";
import type { TurnServiceOptions } from "./turn-service-options.js";

/** What the turn service gives every phase: its ports, engines and hooks. */
export type TurnDeps = Pick<
  TurnServiceOptions,
  | "store"
  | "provider"
  | "engines"
  | "clock"
  | "ids"
  | "windowSize"
  | "contextInjector"
  | "actionRecorder"
  | "checkpoints"
  | "memories"
  | "retrieval"
  | "embeddings"
> & {
  /** Turn and phase metrics (NO_METRICS when off). */
  readonly metrics: SolMetrics;
  /** The model's context in tokens and the share of it past which the breakpoint sees pressure. */
  readonly contextTokens: number;
  readonly contextPressureShare: number;
  /** The mode pack's labels: a reply announcing a switch to another of them is strict mode drift. */
  readonly modeLabels: readonly string[];
  /** Waits between memento compare-and-swap retries (the service's sleep). */
  readonly sleep: (ms: number) => Promise<void>;
};

/** How this attempt of the turn was started. */
export interface TurnDelivery {
  readonly attemptId: string;
  readonly startedMs: number;
  /** True when the claim made by this request opened the attempt (its trace run is still empty). */
  readonly firstAttempt: boolean;
  /** The thread reads issued alongside the claim; a re-run reads the thread afresh. */
  readonly reads?: Promise<ThreadReads>;
}

/** Model usage of the turn, summed over every call. */
export interface TurnUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** One claimed turn as its phases see it: who, which request, its trace and its model usage so far. */
export interface TurnRun {
  readonly deps: TurnDeps;
  readonly tenantId: string;
  /** SHA-256 of the canonical request body, for idempotency. */
  readonly bodyHash: string;
  readonly packet: PacketInput;
  readonly tx: TransmissionRecord;
  readonly trace: TraceBuffer;
  readonly delivery: TurnDelivery;
  readonly usage: Readonly<TurnUsage>;
  /** Counts a model call's usage; every phase that calls the provider reports through it. */
  readonly onCall: (purpose: LlmCallPurpose, response: LlmResponse) => void;
}

/** A TurnRun with zero usage. */
export function startTurnRun(fields: Omit<TurnRun, "usage" | "onCall">): TurnRun {
  const usage: TurnUsage = { modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  const onCall = (_purpose: LlmCallPurpose, r: LlmResponse) => {
    usage.modelCalls += 1;
    usage.inputTokens += r.usage?.inputTokens ?? 0;
    usage.outputTokens += r.usage?.outputTokens ?? 0;
  };
  return { ...fields, usage, onCall };
}
