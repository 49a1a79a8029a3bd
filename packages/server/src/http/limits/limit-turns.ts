import type { TurnService } from "../../orchestrator/turn-service.js";
import type { RequestLimits } from "./request-limits.js";

/**
 * The turn service with the tenant's token budget: a tenant already past it gets budget_exceeded
 * before the turn runs; a turn that ran (not a replay) spends its input + output tokens.
 */
export function limitTurns(turns: TurnService, limits: RequestLimits): TurnService {
  if (limits.store === "off") return turns;
  return {
    async runTurn(ctx, packet) {
      await limits.checkTokens(ctx.tenantId);
      const outcome = await turns.runTurn(ctx, packet);
      if (!outcome.replayed) {
        const { inputTokens = 0, outputTokens = 0 } = outcome.response.usage;
        await limits.spendTokens(ctx.tenantId, inputTokens + outputTokens);
      }
      return outcome;
    },
    drain: () => turns.drain(),
  };
}
