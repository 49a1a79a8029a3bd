import { randomUUID } from "node:crypto";
import { SolError } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { TurnOutcome } from "../../orchestrator/index.js";
import type { AppDeps } from "../app-deps.js";
import { writeSse } from "../sse.js";
import { defaultFacadeThread } from "./facade-thread.js";
import { refuseUnsupportedTools } from "./facade-tools.js";
import { FacadeHeaders, OpenAiError } from "./openai-contracts.js";
import { FACADE_RESPONSE_HEADERS, facadeHeaders } from "./openai-headers.js";
import { liveFacadeStream } from "./openai-live.js";
import { ResponseObject, ResponsesRequest } from "./openai-responses-contracts.js";
import {
  continuingTurn,
  echoOf,
  pendingResponse,
  toResponseObject,
  toResponsesTurn,
  transmissionOfResponse,
} from "./openai-responses-mapping.js";
import { liveResponses, toResponseEvents } from "./openai-responses-stream.js";
import { invalidFacadeRequest, responsesStructuredOutput } from "./openai-structured.js";

/**
 * The thread a Responses request joins: that of `previous_response_id` (a 404 when this tenant has no
 * such finished response), else `x-sol-thread-id`, else the key's default thread.
 */
async function threadOf(
  deps: AppDeps,
  tenantId: string,
  previous: string | null | undefined,
  fallback: string,
): Promise<string> {
  if (previous == null) return fallback;
  const transmissionId = transmissionOfResponse(previous);
  const tx = transmissionId === null ? null : await deps.store.transmissions.get(tenantId, transmissionId);
  if (tx === null || tx.status !== "succeeded") {
    throw new SolError("not_found", `No response with id '${previous}' was found.`, {
      details: { field: "previous_response_id" },
    });
  }
  return tx.threadId;
}

/**
 * `POST /v1/responses`: the OpenAI Responses API over the same governed turn as `/v1/chat`.
 * `previous_response_id` continues that response's thread; errors use OpenAI's shape.
 */
export function registerOpenAiResponsesRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/v1/responses",
    {
      config: {
        errorFormat: "openai",
        eventStream:
          "With stream: true: `event: <type>` / `data: <event>` pairs in the Responses API's order: response.created, response.in_progress, response.output_item.added, response.content_part.added, response.output_text.delta..., response.output_text.done, response.content_part.done, response.output_item.done (function calls: response.function_call_arguments.delta/done), then response.completed (or response.incomplete).",
        responseHeaders: { 200: FACADE_RESPONSE_HEADERS },
      },
      schema: {
        summary: "OpenAI-compatible Responses API (runs one governed turn)",
        headers: FacadeHeaders,
        body: ResponsesRequest,
        response: {
          200: ResponseObject,
          400: OpenAiError,
          401: OpenAiError,
          404: OpenAiError,
          409: OpenAiError,
          429: OpenAiError,
          502: OpenAiError,
        },
      },
    },
    async (req, reply) => {
      const body = req.body;
      refuseUnsupportedTools(deps.provider.name, (body.tools?.length ?? 0) > 0 ? "tools" : null);
      const named = req.headers["x-sol-thread-id"] ?? defaultFacadeThread(req.tenantId, req.apiKey);
      const threadId = await threadOf(deps, req.tenantId, body.previous_response_id, named);
      const requestId = req.headers["idempotency-key"] ?? `oai_${randomUUID().replaceAll("-", "")}`;
      const timeZone = req.headers["x-sol-timezone"];
      const structured = responsesStructuredOutput(body.text?.format);
      if (!structured.ok) throw invalidFacadeRequest(structured.issues);
      const mapped = toResponsesTurn(body, { requestId, threadId, timeZone });
      if (!mapped.ok) throw invalidFacadeRequest(mapped.issues);
      const turn = body.previous_response_id == null ? mapped.value : continuingTurn(mapped.value);
      // stream: true sends the guarded release as it happens (README "Streaming on the facades").
      const streaming =
        body.stream === true
          ? liveResponses(pendingResponse(echoOf(body), deps.provider.model ?? "sol"))
          : null;
      const live = streaming
        ? liveFacadeStream(
            reply,
            { "x-sol-thread-id": threadId, "x-request-id": requestId },
            streaming.format,
          )
        : null;
      let outcome: TurnOutcome;
      try {
        outcome = await deps.turns.runTurn(
          {
            tenantId: req.tenantId,
            bodyHash: mapped.value.bodyHash,
            ...(turn.window ? { window: turn.window } : {}),
            instructions: structured.value
              ? [...turn.instructions, structured.value.instruction]
              : turn.instructions,
            ...(structured.value ? { structuredOutput: structured.value } : {}),
            ...(turn.passthrough ? { passthrough: turn.passthrough } : {}),
            ...(turn.turnTail ? { turnTail: turn.turnTail } : {}),
            ...(turn.promptUserMessage === undefined ? {} : { promptUserMessage: turn.promptUserMessage }),
            ...(live ? { stream: live.sink } : {}),
          },
          turn.packet,
        );
      } catch (error) {
        // Before the first event the error is a plain OpenAI error response; after it, an `error` event.
        if (live === null || !live.started) throw error;
        live.fail(error);
        return reply;
      }
      const headers = facadeHeaders(outcome.response, outcome.replayed);
      const response = toResponseObject(outcome, echoOf(body));
      if (live?.started === true && streaming) {
        streaming.finish(live, response, outcome);
        return reply;
      }
      if (body.stream === true) return writeSse(reply, toResponseEvents(response, outcome), headers);
      return reply.code(200).headers(headers).send(response);
    },
  );
}
