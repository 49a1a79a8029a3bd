import { randomUUID } from "node:crypto";
import { SolError } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { OFFLINE_PROVIDER_NAME } from "../../providers/offline/index.js";
import type { AppDeps } from "../app-deps.js";
import { invalidRequestSentence } from "../error-mapping.js";
import { writeSseData } from "../sse.js";
import { defaultFacadeThread } from "./facade-thread.js";
import { ChatCompletion, ChatCompletionRequest, FacadeHeaders, OpenAiError } from "./openai-contracts.js";
import {
  toChatCompletion,
  toChunks,
  toFacadeTurn,
  usesLegacyFunctions,
  wantsTools,
} from "./openai-mapping.js";

/**
 * `POST /v1/chat/completions`: the OpenAI Chat Completions API over the same governed turn as
 * `/v1/chat`. Errors use OpenAI's shape (route config `errorFormat`).
 */
export function registerOpenAiChatRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/v1/chat/completions",
    {
      config: {
        errorFormat: "openai",
        eventStream:
          "With stream: true: `data: <chat.completion.chunk>` events (with stream_options.include_usage, a last chunk with no choices carrying usage), then `data: [DONE]`.",
        responseHeaders: {
          200: {
            "X-Sol-Mode": "The mode the turn ran in.",
            "X-Sol-Breakpoint": "The breakpoint decision: must, should or skip.",
            "X-Sol-Trace-Id": "The turn's trace run (GET /v1/traces/{traceRunId}).",
            "X-Sol-Thread-Id": "The thread the turn joined (x-sol-thread-id, or the key's default thread).",
            "X-Request-Id": "The turn's request id: the idempotency-key, or one the server made.",
            "Idempotent-Replayed": "`true` when this is the stored answer to an earlier identical request.",
          },
        },
      },
      schema: {
        summary: "OpenAI-compatible chat completion (runs one governed turn)",
        headers: FacadeHeaders,
        body: ChatCompletionRequest,
        response: {
          200: ChatCompletion,
          400: OpenAiError,
          401: OpenAiError,
          409: OpenAiError,
          429: OpenAiError,
          502: OpenAiError,
        },
      },
    },
    async (req, reply) => {
      const body = req.body;
      if (wantsTools(body) && deps.provider.name === OFFLINE_PROVIDER_NAME) {
        throw new SolError(
          "invalid_input",
          "tools require SOL_LLM=openai: the offline provider cannot call functions.",
          { details: { field: body.tools ? "tools" : "functions" } },
        );
      }
      const threadId = req.headers["x-sol-thread-id"] ?? defaultFacadeThread(req.tenantId, req.apiKey);
      const requestId = req.headers["idempotency-key"] ?? `oai_${randomUUID().replaceAll("-", "")}`;
      const turn = toFacadeTurn(body, { requestId, threadId });
      if (!turn.ok) {
        const details = turn.issues.map((i) => ({ path: (i.path ?? []).join("."), message: i.message }));
        throw new SolError("invalid_input", invalidRequestSentence(details.map((d) => d.path)), {
          details,
        });
      }
      const {
        packet,
        window,
        instructions,
        passthrough,
        stopSequences,
        bodyHash,
        turnTail,
        promptUserMessage,
      } = turn.value;
      const outcome = await deps.turns.runTurn(
        {
          tenantId: req.tenantId,
          bodyHash,
          window,
          instructions,
          ...(passthrough ? { passthrough } : {}),
          ...(stopSequences ? { stopSequences } : {}),
          ...(turnTail ? { turnTail } : {}),
          ...(promptUserMessage === undefined ? {} : { promptUserMessage }),
        },
        packet,
      );
      const { response } = outcome;
      const headers: Record<string, string> = {
        "x-sol-mode": response.modeDecision.modeLabel,
        "x-sol-breakpoint": response.breakpoint.decision,
        "x-sol-trace-id": response.trace.traceRunId,
        "x-sol-thread-id": response.threadId,
        "x-request-id": response.requestId,
        ...(outcome.replayed ? { "idempotent-replayed": "true" } : {}),
      };
      const completion = toChatCompletion(outcome, { legacyFunctions: usesLegacyFunctions(body) });
      if (body.stream === true) {
        return writeSseData(
          reply,
          [...toChunks(completion, body.stream_options?.include_usage === true), "[DONE]"],
          headers,
        );
      }
      return reply.code(200).headers(headers).send(completion);
    },
  );
}
