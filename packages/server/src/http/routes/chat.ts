import { ChatResponse, ErrorBody, PacketInput } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { TurnOutcome, TurnStreamEvent } from "../../orchestrator/index.js";
import { canonicalJson, sha256Hex } from "../../store/index.js";
import { prefersEventStream } from "../accept.js";

import type { AppDeps } from "../app-deps.js";
import { mapErrorToHttp } from "../error-mapping.js";
import { lazySse, splitForStream } from "../sse.js";

/**
 * The packet as idempotency compares it. Defaults are applied before hashing, so a field left out and
 * the same field sent with its default value are one request; `traceConfig` and `driverBlockMode` have
 * no schema default, so their default values are dropped here to the same effect.
 */
function idempotencyView(packet: PacketInput): Partial<PacketInput> {
  const { traceConfig, driverBlockMode, ...rest } = packet;
  return {
    ...rest,
    ...(traceConfig !== undefined && traceConfig.level !== "info" ? { traceConfig } : {}),
    ...(driverBlockMode !== undefined && driverBlockMode !== "default" ? { driverBlockMode } : {}),
  };
}

/** `POST /v1/chat`: one governed turn, as JSON or as server-sent events. */
export function registerChatRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/v1/chat",
    {
      config: {
        eventStream:
          "With Accept: text/event-stream: `delta` events ({ text }) as the model writes, released once every check decidable on a prefix passed; `retract` ({ reason }) withdraws every delta so far (the regenerated reply follows); one `final` event carrying the response object (its assistant.content equals the deltas after the last retract, joined); `error` ({ error }) ends a stream that fails after its first event.",
        responseHeaders: {
          200: {
            "Idempotent-Replayed": "`true` when this is the stored answer to an earlier identical request.",
          },
        },
      },
      schema: {
        summary: "Run one chat turn through the control plane",
        body: PacketInput,
        response: { 200: ChatResponse, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody, 502: ErrorBody },
      },
    },
    async (req, reply) => {
      const bodyHash = sha256Hex(canonicalJson(idempotencyView(req.body)));
      const ctx = { tenantId: req.tenantId, bodyHash };
      if (!prefersEventStream(req.headers.accept)) {
        const outcome = await deps.turns.runTurn(ctx, req.body);
        if (outcome.replayed) reply.header("idempotent-replayed", "true");
        return reply.code(200).send(outcome.response);
      }
      let replayed = false;
      const sse = lazySse(reply, () => (replayed ? { "idempotent-replayed": "true" } : {}));
      let shown = "";
      const onEvent = (event: TurnStreamEvent) => {
        if (event.type === "delta") {
          shown += event.text;
          sse.send("delta", { text: event.text });
        } else {
          shown = "";
          sse.send("retract", { reason: event.reason });
        }
      };
      let outcome: TurnOutcome;
      try {
        outcome = await deps.turns.runTurn({ ...ctx, stream: { onEvent } }, req.body);
      } catch (error) {
        // Before the first event the error is a plain JSON response; after it, the stream's last event.
        if (!sse.started) throw error;
        sse.send("error", mapErrorToHttp(error).body);
        sse.end();
        return reply;
      }
      replayed = outcome.replayed;
      const content = outcome.response.assistant.content;
      // A replay streams the stored reply; a live turn has streamed it already, but for a stored form
      // that differs (a described tool call), which replaces what was shown.
      if (content !== shown) {
        if (!content.startsWith(shown)) onEvent({ type: "retract", reason: "reply_replaced" });
        for (const text of splitForStream(content.slice(shown.length))) onEvent({ type: "delta", text });
      }
      sse.send("final", outcome.response);
      sse.end();
      return reply;
    },
  );
}
