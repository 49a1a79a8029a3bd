import { type ChatResponse, SolError } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mapErrorFor, mapErrorToHttp, mapErrorToOpenAi } from "../../src/http/error-mapping.js";
import { ChatCompletionRequest } from "../../src/http/routes/openai-contracts.js";
import { toChatCompletion, toChunks, toFacadeTurn } from "../../src/http/routes/openai-mapping.js";
import { splitForStream } from "../../src/http/sse.js";
import { describeToolCalls, toolCallsOf } from "../../src/orchestrator/tool-calls.js";

const ids = { requestId: "req-1", threadId: "th-1" };
const parse = (body: unknown) => ChatCompletionRequest.parse(body);

function turnOf(body: unknown) {
  const turn = toFacadeTurn(parse(body), ids);
  if (!turn.ok) throw new Error(JSON.stringify(turn.issues));
  return turn.value;
}

const baseResponse: ChatResponse = {
  transmissionId: "tx_1",
  requestId: "req-1",
  threadId: "th-1",
  assistant: { messageId: "msg_1", content: "Hello there, how can I help with the garden today?" },
  modeDecision: {
    modeLabel: "assist",
    domainFlags: [],
    rigorConfig: { level: "normal", gates: [] },
    clusterIds: [],
    checkpointNeeded: false,
    confidence: 0.9,
    reasons: ["r"],
    version: "1",
    step: 1,
  } as unknown as ChatResponse["modeDecision"],
  breakpoint: { decision: "should", peakGuardrailActive: false },
  threadMemento: null,
  actions: [],
  validation: { passed: true, regenerated: false, violations: [] },
  trace: { traceRunId: "tr_1" },
  usage: { modelCalls: 1, inputTokens: 10, outputTokens: 4 },
  provider: { name: "openai", model: "gpt-test", offline: false },
};

describe("toFacadeTurn", () => {
  it("with tools, clips the stored text of an over-long tool result (never mid-character) and keeps it whole for the provider", () => {
    // Two paddings, so the cut lands once on each half of an emoji's surrogate pair.
    for (const pad of [19_900, 19_901]) {
      const result = `${"a".repeat(pad)}${"😀".repeat(200)}`;
      const turn = turnOf({
        model: "sol",
        tools: [{ type: "function", function: { name: "f", parameters: {} } }],
        messages: [
          { role: "user", content: "Go." },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
          },
          { role: "tool", tool_call_id: "c1", content: result },
        ],
      });
      expect(turn.packet.message.length).toBeLessThanOrEqual(20_000);
      expect(turn.packet.message.endsWith("😀…")).toBe(true);
      expect(turn.promptUserMessage).toBe("Go.");
      expect(turn.turnTail?.at(-1)?.providerMessage).toMatchObject({ role: "tool", content: result });
    }
  });

  it("makes the last user message the turn, earlier messages the window, system messages instructions", () => {
    const turn = turnOf({
      model: "sol",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "First question" },
        { role: "assistant", content: "First answer" },
        {
          role: "user",
          content: [
            { type: "text", text: "Second " },
            { type: "text", text: "question" },
          ],
        },
      ],
      max_tokens: 64,
    });
    expect(turn.packet.message).toBe("Second question");
    expect(turn.packet.requestId).toBe("req-1");
    expect(turn.packet.threadId).toBe("th-1");
    expect(turn.packet.budgets).toEqual({ maxOutputTokens: 64 });
    expect(turn.window).toEqual([
      { role: "user", content: "First question" },
      { role: "assistant", content: "First answer" },
    ]);
    expect(turn.instructions).toEqual(["Client instructions:\nBe brief."]);
    expect(turn.passthrough).toBeUndefined();
  });

  it("keeps an earlier refusal in the window as the assistant's turn", () => {
    const turn = turnOf({
      model: "sol",
      messages: [
        { role: "user", content: "Do the forbidden thing." },
        { role: "assistant", content: null, refusal: "I can't help with that." },
        { role: "user", content: "Then something else." },
      ],
    });
    expect(turn.window).toEqual([
      { role: "user", content: "Do the forbidden thing." },
      { role: "assistant", content: "[refusal] I can't help with that." },
    ]);
  });

  it("renders tool calls and appends tool results that follow the last user message to the turn", () => {
    const turn = turnOf({
      model: "sol",
      tools: [{ type: "function", function: { name: "f" } }],
      tool_choice: "auto",
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c1", content: "sunny" },
      ],
    });
    expect(turn.packet.message).toBe("Weather?\n\n[tool call c1] f({})\n\n[tool result c1] sunny");
    expect(turn.window).toEqual([]);
    expect(turn.passthrough).toEqual({
      tools: [{ type: "function", function: { name: "f" } }],
      tool_choice: "auto",
    });
  });

  it("hashes the turn, not its delivery: stream flags do not change the hash, the thread and body do", () => {
    const body = { model: "sol", messages: [{ role: "user", content: "hi" }] };
    const plain = turnOf(body).bodyHash;
    expect(turnOf({ ...body, stream: true, stream_options: { include_usage: true } }).bodyHash).toBe(plain);
    expect(turnOf({ ...body, temperature: 0.2 }).bodyHash).not.toBe(plain);
    const other = toFacadeTurn(parse(body), { ...ids, threadId: "th-2" });
    expect(other.ok && other.value.bodyHash).not.toBe(plain);
  });

  it("reports a turn the packet contract rejects at the message's own path", () => {
    const turn = toFacadeTurn(
      parse({
        model: "sol",
        messages: [
          { role: "user", content: "x".repeat(20_001) },
          { role: "assistant", content: "ok" },
        ],
      }),
      ids,
    );
    expect(turn.ok).toBe(false);
    if (!turn.ok) expect(turn.issues[0]?.path).toEqual(["messages", 0, "content"]);
  });

  it("property: the window keeps every non-empty user/assistant message before the last user turn, in order", () => {
    const message = fc.record({
      role: fc.constantFrom("system", "user", "assistant"),
      content: fc.string({ minLength: 1, maxLength: 12 }),
    });
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 12 }),
        fc.string({ minLength: 1, maxLength: 12 }),
        (before, last) => {
          const turn = turnOf({ model: "m", messages: [...before, { role: "user", content: last }] });
          expect(turn.packet.message).toBe(last);
          expect(turn.window).toEqual(
            before.filter((m) => m.role !== "system").map((m) => ({ role: m.role, content: m.content })),
          );
          expect(turn.instructions).toHaveLength(before.filter((m) => m.role === "system").length);
        },
      ),
    );
  });
});

describe("completions and chunks", () => {
  const outcome = { response: baseResponse, replayed: false, createdAt: "2026-03-01T10:00:00.500Z" };

  it("builds the chat.completion object from a turn", () => {
    expect(toChatCompletion(outcome)).toEqual({
      id: "chatcmpl-tx_1",
      object: "chat.completion",
      created: Date.parse("2026-03-01T10:00:00Z") / 1000,
      model: "gpt-test",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: baseResponse.assistant.content, refusal: null },
          finish_reason: "stop",
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
    });
  });

  it("a tool-call reply has null content and finish_reason tool_calls; chunks carry the calls", () => {
    const call = { id: "c1", type: "function" as const, function: { name: "f", arguments: "{}" } };
    const completion = toChatCompletion({
      ...outcome,
      response: { ...baseResponse, assistant: { messageId: "m", content: "", toolCalls: [call] } },
    });
    expect(completion.choices[0]?.message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [call],
      refusal: null,
    });
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
    const chunks = toChunks(completion, false);
    expect(chunks.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []))).toEqual([
      { index: 0, ...call },
    ]);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("property: streamed deltas concatenate to the completion's content", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.boolean(), (content, usage) => {
        const completion = toChatCompletion({
          ...outcome,
          response: { ...baseResponse, assistant: { messageId: "m", content } },
        });
        const chunks = toChunks(completion, usage);
        expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe(content);
        expect(splitForStream(content).every((p) => p.length > 0)).toBe(true);
        // With include_usage every chunk carries `usage`: null but on the last, which has no choices.
        expect(chunks.filter((c) => c.usage != null)).toHaveLength(usage ? 1 : 0);
        expect(chunks.every((c) => (usage ? c.usage !== undefined : c.usage === undefined))).toBe(true);
        if (usage) expect(chunks.at(-1)?.choices).toEqual([]);
      }),
    );
  });
});

describe("tool calls from a provider's raw message", () => {
  it("normalises function and custom calls, drops malformed ones, fills a missing id", () => {
    const raw = {
      tool_calls: [
        { id: "a", type: "function", function: { name: "f", arguments: '{"x":1}' }, extra: true },
        { type: "function", function: { name: "g" } },
        { id: "c", type: "custom", custom: { name: "h", input: "select 1" } },
        { id: "d", type: "function", function: { name: "" } },
        { id: "e", type: "web_search" },
      ],
    };
    expect(toolCallsOf(raw)).toEqual([
      { id: "a", type: "function", function: { name: "f", arguments: '{"x":1}' } },
      { id: "call_1", type: "function", function: { name: "g", arguments: "" } },
      { id: "c", type: "custom", custom: { name: "h", input: "select 1" } },
    ]);
    expect(toolCallsOf({ role: "assistant", content: "hi" })).toEqual([]);
    expect(toolCallsOf(undefined)).toEqual([]);
    expect(describeToolCalls(toolCallsOf(raw))).toBe(
      '[tool call] f({"x":1})\n[tool call] g()\n[tool call] h: select 1',
    );
  });

  it("reads a legacy function_call as one function call", () => {
    const raw = { content: null, function_call: { name: "f", arguments: "{}" } };
    expect(toolCallsOf(raw)).toEqual([
      { id: "call_0", type: "function", function: { name: "f", arguments: "{}" } },
    ]);
    expect(toolCallsOf({ function_call: { arguments: "{}" } })).toEqual([]);
  });
});

describe("OpenAI error variant", () => {
  it("keeps status and code, adds type and param; the default format is untouched", () => {
    const error = new SolError("invalid_input", "tools require SOL_LLM=openai.", {
      details: { field: "tools" },
    });
    expect(mapErrorToOpenAi(error)).toMatchObject({
      status: 400,
      body: {
        error: {
          message: "tools require SOL_LLM=openai.",
          type: "invalid_request_error",
          param: "tools",
          code: "invalid_input",
        },
      },
    });
    expect(mapErrorFor(undefined, error)).toEqual(mapErrorToHttp(error));
    expect(mapErrorFor("sol", error)).toEqual(mapErrorToHttp(error));
    expect(mapErrorFor("openai", error)).toEqual(mapErrorToOpenAi(error));
  });

  it("maps statuses to OpenAI error types and keeps Retry-After", () => {
    const cases: [SolError, number, string][] = [
      [new SolError("unauthorized", "no key"), 401, "authentication_error"],
      [new SolError("not_found", "gone"), 404, "not_found_error"],
      [new SolError("idempotency_conflict", "other body"), 409, "invalid_request_error"],
      [
        new SolError("budget_exceeded", "slow down", { details: { retryAfterSeconds: 3 } }),
        429,
        "rate_limit_error",
      ],
      [new SolError("provider_error", "upstream"), 502, "server_error"],
    ];
    for (const [error, status, type] of cases) {
      const mapped = mapErrorToOpenAi(error);
      expect(mapped.status).toBe(status);
      const message =
        error.code === "idempotency_conflict" ? expect.stringContaining("idempotency-key") : error.message;
      expect(mapped.body.error).toEqual({ message, type, param: null, code: error.code });
    }
    expect(mapErrorToOpenAi(cases[3]?.[0]).headers?.["retry-after"]).toBe("3");
    expect(mapErrorToOpenAi(cases[2]?.[0]).headers?.["x-should-retry"]).toBe("false");
  });

  it("tells clients not to retry a 502 whose upstream refused the request itself (4xx but 408/409/429)", () => {
    const upstream = (status?: number) =>
      new SolError("provider_error", "refused", {
        details: status === undefined ? { attempts: 1 } : { status, attempts: 1 },
      });
    for (const status of [400, 401, 404, 422]) {
      expect(mapErrorToOpenAi(upstream(status)).headers?.["x-should-retry"]).toBe("false");
      expect(mapErrorToHttp(upstream(status)).headers?.["x-should-retry"]).toBe("false");
      expect(mapErrorToHttp(upstream(status)).body.error.details).toEqual({
        status,
        attempts: 1,
        retryable: false,
      });
    }
    for (const status of [undefined, 408, 409, 429, 500, 503]) {
      expect(mapErrorToOpenAi(upstream(status)).headers?.["x-should-retry"]).toBeUndefined();
      expect(mapErrorToHttp(upstream(status)).body.error.details).not.toHaveProperty("retryable");
    }
  });

  it("names the first invalid field of a validation error in param and message", () => {
    const validation = Object.assign(new Error("bad"), {
      validation: [{ instancePath: "/messages/0/role", message: "Invalid input" }],
      validationContext: "body",
    });
    const mapped = mapErrorToOpenAi(validation);
    expect(mapped.status).toBe(400);
    expect(mapped.body.error.param).toBe("messages.0.role");
    expect(mapped.body.error.message).toContain("messages.0.role: Invalid input");
  });

  it("never answers 500 for an unknown thrown value without saying it is a server error", () => {
    const mapped = mapErrorToOpenAi(new Error("boom"));
    expect(mapped.status).toBe(500);
    expect(mapped.body.error).toEqual({
      message: "The server failed to handle this request.",
      type: "server_error",
      param: null,
      code: "internal",
    });
  });
});
