import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { TurnOutcome } from "../../orchestrator/index.js";
import type { AppDeps } from "../app-deps.js";
import { writeSseData } from "../sse.js";
import { defaultFacadeThread } from "./facade-thread.js";
import { refuseUnsupportedTools } from "./facade-tools.js";
import { finishLiveChat, liveChatFormat, withTrailer } from "./openai-chat-live.js";
import { ChatCompletion, ChatCompletionRequest, FacadeHeaders, OpenAiError } from "./openai-contracts.js";
import { FACADE_RESPONSE_HEADERS, facadeHeaders } from "./openai-headers.js";
import { liveFacadeStream } from "./openai-live.js";
import {
  toChatCompletion,
  toChunks,
  toFacadeTurn,
  usesLegacyFunctions,
  wantsTools,
} from "./openai-mapping.js";
import { chatStructuredOutput, invalidFacadeRequest } from "./openai-structured.js";

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
        responseHeaders: { 200: FACADE_RESPONSE_HEADERS },
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
      refuseUnsupportedTools(
        deps.provider.name,
        wantsTools(body) ? (body.tools?.length ? "tools" : "functions") : null,
      );
      const threadId = req.headers["x-sol-thread-id"] ?? defaultFacadeThread(req.tenantId, req.apiKey);
      const requestId = req.headers["idempotency-key"] ?? `oai_${randomUUID().replaceAll("-", "")}`;
      const timeZone = req.headers["x-sol-timezone"];
      const structured = chatStructuredOutput(body.response_format);
      if (!structured.ok) throw invalidFacadeRequest(structured.issues);
      const turn = toFacadeTurn(body, { requestId, threadId, timeZone });
      if (!turn.ok) throw invalidFacadeRequest(turn.issues);
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
      const includeUsage = body.stream_options?.include_usage === true;
      // stream: true sends the guarded release as it happens (README "Streaming on the facades").
      const live =
        body.stream === true
          ? liveFacadeStream(
              reply,
              { "x-sol-thread-id": threadId, "x-request-id": requestId },
              liveChatFormat(deps.provider.model ?? "sol", includeUsage),
            )
          : null;
      let outcome: TurnOutcome;
      try {
        outcome = await deps.turns.runTurn(
          {
            tenantId: req.tenantId,
            bodyHash,
            window,
            instructions: structured.value ? [...instructions, structured.value.instruction] : instructions,
            ...(structured.value ? { structuredOutput: structured.value } : {}),
            ...(passthrough ? { passthrough } : {}),
            ...(stopSequences ? { stopSequences } : {}),
            ...(turnTail ? { turnTail } : {}),
            ...(promptUserMessage === undefined ? {} : { promptUserMessage }),
            ...(live ? { stream: live.sink } : {}),
          },
          packet,
        );
      } catch (error) {
        // Before the first chunk the error is a plain OpenAI error response; after it, the stream's last data.
        if (live === null || !live.started) throw error;
        live.fail(error);
        return reply;
      }
      const { response } = outcome;
      const headers = facadeHeaders(response, outcome.replayed);
      const completion = toChatCompletion(outcome, { legacyFunctions: usesLegacyFunctions(body) });
      if (live?.started === true) {
        finishLiveChat(live, completion, outcome, includeUsage);
        return reply;
      }
      if (body.stream === true) {
        return writeSseData(
          reply,
          [...withTrailer(toChunks(completion, includeUsage), outcome), "[DONE]"],
          headers,
        );
      }
      return reply.code(200).headers(headers).send(completion);
    },
  );
}
