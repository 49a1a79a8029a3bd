import { ChatResponse, ErrorBody, PacketInput } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { canonicalJson, sha256Hex } from "../../store/index.js";
import { prefersEventStream } from "../accept.js";
import type { AppDeps } from "../app-deps.js";
import { splitForStream, writeSse } from "../sse.js";

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
          "With Accept: text/event-stream: `delta` events ({ text }), then one `final` event carrying the response object.",
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
      const outcome = await deps.turns.runTurn({ tenantId: req.tenantId, bodyHash }, req.body);
      if (outcome.replayed) reply.header("idempotent-replayed", "true");
      if (!prefersEventStream(req.headers.accept)) return reply.code(200).send(outcome.response);
      // Deltas are released after validation: the drift protocol must see the whole reply before the user does.
      const events = splitForStream(outcome.response.assistant.content).map((text) => ({
        event: "delta",
        data: { text },
      }));
      events.push({ event: "final", data: outcome.response as never });
      return writeSse(reply, events, outcome.replayed ? { "idempotent-replayed": "true" } : {});
    },
  );
}
