import {
  type ChatResponse,
  type DriverBlock,
  type DriverBlockStore,
  type PacketInput,
  SolError,
  type TransmissionRecord,
} from "@solserver/core";
import { NO_METRICS, type SolMetrics } from "../observability/metrics.js";
import { inSpan } from "../observability/tracing.js";
import { runAttempt } from "./attempt-phase.js";
import { awaitExisting, claimPhase, type ResolvedTurnOptions } from "./claim-phase.js";
import { resolvePinnedContext } from "./pinned-context.js";
import { holdLease, TurnLeaseLost } from "./turn-lease.js";
import { resolveTurnPlan, type TurnPlan } from "./turn-plan.js";
import type { TurnDelivery, TurnDeps } from "./turn-run.js";
import type { TurnContext, TurnOutcome, TurnService } from "./turn-service.js";
import type { TurnServiceOptions } from "./turn-service-options.js";

/** A context window most current chat models meet or exceed; configure the real one per provider. */
const DEFAULT_CONTEXT_TOKENS = 128_000;
const DEFAULT_CONTEXT_PRESSURE_SHARE = 0.8;

/** A turn inside its span (`sol.turn`, the request span's child) with its outcome in the metrics. */
async function observedTurn(metrics: SolMetrics, turn: () => Promise<TurnOutcome>): Promise<TurnOutcome> {
  const startMs = performance.now();
  const seconds = () => (performance.now() - startMs) / 1000;
  metrics.turnStarted();
  return inSpan("sol.turn", {}, async (span) => {
    try {
      const outcome = await turn();
      const { response } = outcome;
      span.setAttributes({
        "sol.trace_run_id": response.trace.traceRunId,
        "sol.replayed": outcome.replayed,
        "sol.mode": response.modeDecision.modeLabel,
        "sol.routing.step": response.modeDecision.step,
        "sol.breakpoint": response.breakpoint.decision,
        "sol.model_calls": response.usage.modelCalls,
      });
      metrics.turnEnded(
        outcome.replayed
          ? { outcome: "replayed", seconds: seconds() }
          : {
              outcome: "ok",
              seconds: seconds(),
              routingStep: response.modeDecision.step,
              breakpoint: response.breakpoint.decision,
              regenerated: response.validation.regenerated,
            },
      );
      return outcome;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      metrics.turnEnded({
        outcome: "error",
        errorCode: typeof code === "string" ? code : "internal",
        seconds: seconds(),
      });
      throw error;
    }
  });
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The orchestrator of one turn: its plan, the idempotency claim, then one attempt of the phases
 * (see runTurnPhases) ending in one atomic commit.
 */
export function createTurnService(options: TurnServiceOptions): TurnService {
  const opts: ResolvedTurnOptions = Object.freeze({
    idempotencyWaitMs: 30_000,
    turnLeaseMs: 10_000,
    sleep: defaultSleep,
    metrics: NO_METRICS,
    ...options,
  });
  // A lease of zero would lapse at once and let every retry race its live holder.
  if (!Number.isFinite(opts.turnLeaseMs) || opts.turnLeaseMs <= 0) {
    throw new SolError(
      "invalid_input",
      `turnLeaseMs must be a positive number of ms, got ${opts.turnLeaseMs}`,
    );
  }
  const deps: TurnDeps = Object.freeze({
    ...opts,
    contextTokens: opts.contextTokens ?? DEFAULT_CONTEXT_TOKENS,
    contextPressureShare: opts.contextPressureShare ?? DEFAULT_CONTEXT_PRESSURE_SHARE,
    modeLabels: Object.freeze(opts.engines.router.modes.map((mode) => mode.label)),
  });
  const inFlight = new Set<Promise<unknown>>();

  async function runTurn(ctx: TurnContext, packet: PacketInput): Promise<TurnOutcome> {
    const pinnedContext = await resolvePinnedContext(opts.pinnedContexts, ctx.tenantId, packet);
    const stored = await enabledBlocks(opts.driverBlocks, ctx.tenantId);
    const plan: TurnPlan = {
      ...resolveTurnPlan(packet, ctx, opts.engines.policy, stored),
      ...(pinnedContext === undefined ? {} : { pinnedContext }),
    };
    let claimed = await claimPhase(opts, ctx, packet, plan.facade.window !== undefined);
    for (;;) {
      if (claimed.kind === "replay") {
        return { response: claimed.response, replayed: true, createdAt: claimed.createdAt };
      }
      try {
        return {
          response: await runLeased(claimed.tx, claimed.started),
          replayed: false,
          createdAt: claimed.tx.createdAt,
        };
      } catch (error) {
        if (!(error instanceof TurnLeaseLost)) throw error;
        // Another attempt took this turn over (this one stalled past its lease): its answer is ours.
        const current = await opts.store.transmissions.get(ctx.tenantId, claimed.tx.transmissionId);
        if (current === null) throw error;
        claimed = await awaitExisting(opts, ctx, current);
      }
    }

    /** One attempt under its lease, renewed until it ends; counted for drain(). */
    async function runLeased(tx: TransmissionRecord, started: TurnDelivery): Promise<ChatResponse> {
      const lease = holdLease({
        store: opts.store,
        clock: opts.clock,
        tenantId: ctx.tenantId,
        transmissionId: tx.transmissionId,
        owner: started.attemptId,
        leaseMs: opts.turnLeaseMs,
      });
      const work = runAttempt(deps, ctx, packet, plan, tx, started);
      inFlight.add(work);
      try {
        return await work;
      } finally {
        lease.stop();
        inFlight.delete(work);
      }
    }
  }

  return {
    runTurn: (ctx, packet) => observedTurn(opts.metrics, () => runTurn(ctx, packet)),
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** The tenant's stored blocks that are on, as the policy engine takes them. */
async function enabledBlocks(store: DriverBlockStore | undefined, tenantId: string): Promise<DriverBlock[]> {
  if (store === undefined) return [];
  return (await store.list(tenantId)).filter((stored) => stored.enabled).map((stored) => stored.block);
}
