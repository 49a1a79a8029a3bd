import type { DriverBlock, DriverBlockStore, PacketInput } from "@solserver/core";
import { NO_METRICS, type SolMetrics } from "../observability/metrics.js";
import { inSpan } from "../observability/tracing.js";
import { runAttempt } from "./attempt-phase.js";
import { claimPhase, type ResolvedTurnOptions } from "./claim-phase.js";
import { resolvePinnedContext } from "./pinned-context.js";
import { resolveTurnPlan, type TurnPlan } from "./turn-plan.js";
import type { TurnDeps } from "./turn-run.js";
import type { TurnContext, TurnOutcome, TurnService } from "./turn-service.js";
import type { TurnServiceOptions } from "./turn-service-options.js";

/** A context window most current chat models meet or exceed; configure the real one per provider. */
const DEFAULT_CONTEXT_TOKENS = 128_000;
const DEFAULT_CONTEXT_PRESSURE_SHARE = 0.8;

/** A turn inside its span (`sol.turn`, the request span's child) with its outcome in the metrics. */
async function observedTurn(
  metrics: SolMetrics,
  packet: PacketInput,
  turn: () => Promise<TurnOutcome>,
): Promise<TurnOutcome> {
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
    staleTurnMs: 120_000,
    sleep: defaultSleep,
    metrics: NO_METRICS,
    ...options,
  });
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
    const claimed = await claimPhase(opts, ctx, packet, plan.facade.window !== undefined);
    if (claimed.kind === "replay") {
      return { response: claimed.response, replayed: true, createdAt: claimed.createdAt };
    }
    const work = runAttempt(deps, ctx, packet, plan, claimed.tx, claimed.started);
    inFlight.add(work);
    try {
      return { response: await work, replayed: false, createdAt: claimed.tx.createdAt };
    } finally {
      inFlight.delete(work);
    }
  }

  return {
    runTurn: (ctx, packet) => observedTurn(opts.metrics, packet, () => runTurn(ctx, packet)),
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
