import { isSolError } from "@solserver/core";
import type { ContextInjector } from "../orchestrator/turn-service-options.js";
import type { CheckpointService } from "./checkpoint-service.js";
import { threadSessionId } from "./session-ids.js";
import { CHECKPOINT_TRACE_PHASE, compactEvents } from "./trace-drafts.js";

/**
 * The turn orchestrator's `contextInjector`: the thread is the checkpoint session
 * (`thread:<threadId>`); `session_start` runs on its first turn and `keyword_match` on every turn.
 * The turn's trace gets one `checkpoint` event saying what fired. Context is an aid, not a gate, so
 * a failing evaluation is traced and the turn goes on without it.
 */
export function createCheckpointContextInjector(service: CheckpointService): ContextInjector {
  return async ({ tenantId, threadId, requestId, message, trace }) => {
    const sessionId = threadSessionId(threadId);
    try {
      const outcome = await service.evaluateTurn({ tenantId, sessionId, requestId, input: message });
      const types = [...new Set(outcome.fired.map((f) => f.type))];
      trace.add(
        CHECKPOINT_TRACE_PHASE,
        "completed",
        types.length > 0 ? `Checkpoints fired: ${types.join(", ")}` : "No checkpoint fired",
        {
          sessionId,
          sessionStarted: outcome.sessionStarted,
          replayed: outcome.replayed,
          fired: outcome.fired,
          injectedContexts: outcome.injectContext.length,
          events: compactEvents(outcome.traceEvents),
        },
      );
      return outcome.injectContext;
    } catch (error) {
      trace.add(CHECKPOINT_TRACE_PHASE, "failed", "Checkpoint evaluation failed; no context injected", {
        sessionId,
        code: isSolError(error) ? error.code : "internal",
        message: (error instanceof Error ? error.message : String(error)).slice(0, 500),
      });
      return [];
    }
  };
}
