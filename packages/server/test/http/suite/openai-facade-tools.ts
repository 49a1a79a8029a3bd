import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useFacadeWithScriptedModel } from "../../support/facade-fixture.js";
import { thrown } from "../../support/openai-client.js";
import type { Backend } from "../../support/test-server.js";

const weatherFunction = {
  name: "get_weather",
  description: "Current weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

/** The facade's pass-through edges against a scripted upstream: legacy functions, custom tools, limits. */
export function openAiFacadeToolsSuite(backend: Backend): void {
  describe(`OpenAI facade pass-through edges on ${backend}`, () => {
    const fx = useFacadeWithScriptedModel(backend);
    const { lastMainBody } = fx;

    it("answers a legacy `functions` request with its function_call, in one model call", async () => {
      const functionCall = { name: "get_weather", arguments: '{"city":"Lyon"}' };
      fx.model.reply({
        kind: "completion",
        message: { role: "assistant", content: null, function_call: functionCall },
        finishReason: "function_call",
      });
      const before = fx.model.counts.main;
      const completion = await fx.client.chat.completions.create({
        model: "sol",
        messages: [{ role: "user", content: "What is the weather in Lyon?" }],
        functions: [weatherFunction],
        function_call: "auto",
      });
      expect(fx.model.counts.main - before).toBe(1);
      expect(lastMainBody().functions).toEqual([weatherFunction]);
      const choice = completion.choices[0];
      expect(choice?.finish_reason).toBe("function_call");
      expect(choice?.message.content).toBeNull();
      expect(choice?.message.function_call).toEqual(functionCall);
      expect(choice?.message.tool_calls).toBeUndefined();

      // The function's result comes back as a `function` message and reaches the model as text.
      fx.model.reply({ kind: "json", body: { assistant_text: "Lyon is at 12°C.", meta: {} } });
      const answer = await fx.client.chat.completions.create({
        model: "sol",
        functions: [weatherFunction],
        messages: [
          { role: "user", content: "What is the weather in Lyon?" },
          { role: "assistant", content: null, function_call: functionCall },
          { role: "function", name: "get_weather", content: '{"temp_c":12}' },
        ],
      });
      expect(answer.choices[0]?.message.content).toBe("Lyon is at 12°C.");
      expect(lastMainBody().messages.slice(-2)).toEqual([
        { role: "assistant", content: null, function_call: functionCall },
        { role: "function", name: "get_weather", content: '{"temp_c":12}' },
      ]);
    });

    it("never sends a tool result whose call the window trimmed away", async () => {
      const call = {
        id: "call_old",
        type: "function" as const,
        function: { name: "get_weather", arguments: "{}" },
      };
      const chatter = Array.from({ length: 10 }, (_, i) => ({
        role: (i % 2 === 0 ? "user" : "assistant") as "user" | "assistant",
        content: `small talk ${i}`,
      }));
      await fx.client.chat.completions.create({
        model: "sol",
        tools: [{ type: "function", function: weatherFunction }],
        messages: [
          { role: "user", content: "Weather?" },
          { role: "assistant", content: null, tool_calls: [call] },
          { role: "tool", tool_call_id: "call_old", content: '{"temp_c":9}' },
          { role: "assistant", content: "It is 9°C." },
          ...chatter,
          { role: "user", content: "And tomorrow?" },
        ],
      });
      // The window keeps the last 12 of 14 earlier messages, which would start at the tool result.
      const sent = lastMainBody().messages.filter((m) => m.role !== "system");
      expect(sent.some((m) => m.role === "tool")).toBe(false);
      expect(sent[0]).toEqual({ role: "assistant", content: "It is 9°C." });
      expect(sent.at(-1)).toEqual({ role: "user", content: "And tomorrow?" });
    });

    it("sends incomplete tool exchanges as text, so the provider never gets an order it refuses", async () => {
      const call = (id: string) => ({
        id,
        type: "function" as const,
        function: { name: "get_weather", arguments: "{}" },
      });
      const tools = [{ type: "function" as const, function: weatherFunction }];
      const histories: OpenAI.Chat.Completions.ChatCompletionMessageParam[][] = [
        // A cancelled call: the user spoke again instead of sending its result.
        [
          { role: "user", content: "Weather?" },
          { role: "assistant", content: null, tool_calls: [call("c1")] },
          { role: "user", content: "Never mind, tell me a joke." },
        ],
        // A result on its own (the client trimmed its history).
        [
          { role: "user", content: "Hi" },
          { role: "tool", tool_call_id: "c0", content: "{}" },
          { role: "assistant", content: "Hello." },
          { role: "user", content: "How are you?" },
        ],
        // Results split by the last user message.
        [
          { role: "user", content: "Weather in two cities?" },
          { role: "assistant", content: null, tool_calls: [call("c1"), call("c2")] },
          { role: "tool", tool_call_id: "c1", content: '{"temp_c":1}' },
          { role: "user", content: "Hurry up." },
          { role: "tool", tool_call_id: "c2", content: '{"temp_c":2}' },
        ],
      ];
      for (const messages of histories) {
        await fx.client.chat.completions.create({ model: "sol", tools, messages });
        expect(toolOrderProblems(lastMainBody().messages)).toEqual([]);
      }
    });

    it("accepts a tool result longer than a turn's stored text, and sends it to the provider whole", async () => {
      const call = {
        id: "call_big",
        type: "function" as const,
        function: { name: "get_weather", arguments: "{}" },
      };
      const page = "cloudy ".repeat(5_000);
      fx.model.reply({ kind: "json", body: { assistant_text: "Cloudy all day.", meta: {} } });
      const completion = await fx.client.chat.completions.create({
        model: "sol",
        tools: [{ type: "function", function: weatherFunction }],
        messages: [
          { role: "user", content: "Summarise the forecast page." },
          { role: "assistant", content: null, tool_calls: [call] },
          { role: "tool", tool_call_id: "call_big", content: page },
        ],
      });
      expect(completion.choices[0]?.message.content).toBe("Cloudy all day.");
      expect(lastMainBody().messages.at(-1)).toEqual({
        role: "tool",
        tool_call_id: "call_big",
        content: page,
      });
    });

    it("streams a legacy function_call as a function_call delta", async () => {
      const functionCall = { name: "get_weather", arguments: '{"city":"Nice"}' };
      fx.model.reply({
        kind: "completion",
        message: { role: "assistant", content: null, function_call: functionCall },
        finishReason: "function_call",
      });
      const stream = await fx.client.chat.completions.create({
        model: "sol",
        stream: true,
        messages: [{ role: "user", content: "What is the weather in Nice?" }],
        functions: [weatherFunction],
      });
      const deltas: OpenAI.Chat.Completions.ChatCompletionChunk.Choice[] = [];
      for await (const chunk of stream) deltas.push(...chunk.choices);
      expect(deltas.flatMap((d) => (d.delta.function_call ? [d.delta.function_call] : []))).toEqual([
        functionCall,
      ]);
      expect(deltas.at(-1)?.finish_reason).toBe("function_call");
    });

    it("returns a custom tool's call unchanged", async () => {
      const customCall = { id: "call_sql_1", type: "custom", custom: { name: "run_sql", input: "select 1" } };
      fx.model.reply({
        kind: "completion",
        message: { role: "assistant", content: null, tool_calls: [customCall] },
        finishReason: "tool_calls",
      });
      const before = fx.model.counts.main;
      const completion = await fx.client.chat.completions.create({
        model: "sol",
        messages: [{ role: "user", content: "How many rows are in the table?" }],
        tools: [{ type: "custom", custom: { name: "run_sql", description: "Runs SQL" } }],
      });
      expect(fx.model.counts.main - before).toBe(1);
      expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
      expect(completion.choices[0]?.message.tool_calls).toEqual([customCall]);
    });

    it("returns a provider's refusal as OpenAI's refusal field, with no regeneration", async () => {
      const refusal = "I can't help with that request.";
      fx.model.reply({ kind: "completion", message: { role: "assistant", content: null, refusal } });
      const before = fx.model.counts.main;
      const completion = await fx.client.chat.completions.create(
        { model: "sol", messages: [{ role: "user", content: "Write something I should not ask for." }] },
        { headers: { "idempotency-key": "refusal-1", "x-sol-thread-id": "refusals" } },
      );
      expect(fx.model.counts.main - before).toBe(1);
      expect(completion.choices[0]?.message).toMatchObject({ role: "assistant", content: null, refusal });
      expect(completion.choices[0]?.finish_reason).toBe("stop");

      // The replay streams it as a refusal delta; /v1/chat shows it as the reply text.
      const stream = await fx.client.chat.completions.create(
        {
          model: "sol",
          stream: true,
          messages: [{ role: "user", content: "Write something I should not ask for." }],
        },
        { headers: { "idempotency-key": "refusal-1", "x-sol-thread-id": "refusals" } },
      );
      let streamed = "";
      for await (const chunk of stream) streamed += chunk.choices[0]?.delta.refusal ?? "";
      expect(streamed).toBe(refusal);
      fx.model.reply({ kind: "completion", message: { role: "assistant", content: null, refusal } });
      const chat = await fx.srv.request("POST", "/v1/chat", {
        requestId: "refusal-chat",
        threadId: "refusals-chat",
        message: "Write something I should not ask for.",
      });
      expect(chat.status).toBe(200);
      expect(chat.json.assistant).toMatchObject({ content: refusal, refusal });
      expect(chat.json.usage.modelCalls).toBe(1);
    });

    it("reports finish_reason length with the text so far when the upstream cut the reply short", async () => {
      fx.model.reply({
        kind: "completion",
        message: {
          role: "assistant",
          content: '{"assistant_text": "The first step is to water the \\"fern\\" and',
        },
        finishReason: "length",
      });
      const before = fx.model.counts.main;
      const completion = await fx.client.chat.completions.create({
        model: "sol",
        max_completion_tokens: 5,
        messages: [{ role: "user", content: "Explain how to repot a fern." }],
      });
      // No regeneration: the same token limit would cut the second try too.
      expect(fx.model.counts.main - before).toBe(1);
      expect(completion.choices[0]?.finish_reason).toBe("length");
      expect(completion.choices[0]?.message.content).toBe('The first step is to water the "fern" and');
      // Sent under the client's own name; `max_tokens` is not sent alongside it.
      const sent = lastMainBody();
      expect(sent.max_completion_tokens).toBe(5);
      expect(sent.max_tokens).toBeUndefined();
    });

    it("reports finish_reason content_filter for a filtered reply, with no regeneration", async () => {
      fx.model.reply({
        kind: "completion",
        message: { role: "assistant", content: "" },
        finishReason: "content_filter",
      });
      const before = fx.model.counts.main;
      const completion = await fx.client.chat.completions.create({
        model: "sol",
        messages: [{ role: "user", content: "Describe the scene in detail." }],
      });
      expect(fx.model.counts.main - before).toBe(1);
      expect(completion.choices[0]?.finish_reason).toBe("content_filter");
      expect(completion.choices[0]?.message.content).toBe("");
    });

    it("refuses out-of-range sampling fields with a 400, before any model call", async () => {
      const before = fx.model.counts.main + fx.model.counts.selector;
      for (const bad of [
        { temperature: 5 },
        { top_p: -1 },
        { presence_penalty: 3 },
        { stop: ["a", "b", "c", "d", "e"] },
      ]) {
        const err = (await thrown(() =>
          fx.client.chat.completions.create({
            model: "sol",
            messages: [{ role: "user", content: "Hello there" }],
            ...(bad as object),
          }),
        )) as InstanceType<typeof OpenAI.APIError>;
        expect(err).toBeInstanceOf(OpenAI.BadRequestError);
        expect(err.error).toMatchObject({ type: "invalid_request_error", param: Object.keys(bad)[0] });
      }
      expect(fx.model.counts.main + fx.model.counts.selector).toBe(before);
    });
  });
}

/** Where a message list breaks OpenAI's tool rules: every call answered right after it, no stray result. */
function toolOrderProblems(messages: readonly Record<string, unknown>[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i < messages.length; i += 1) {
    const m = messages[i] ?? {};
    const calls = (m.tool_calls as { id: string }[] | undefined) ?? [];
    if (m.role === "assistant" && calls.length > 0) {
      const open = new Set(calls.map((c) => c.id));
      let j = i + 1;
      for (; messages[j]?.role === "tool" && open.has(messages[j]?.tool_call_id as string); j += 1) {
        open.delete(messages[j]?.tool_call_id as string);
      }
      if (open.size > 0) problems.push(`call at ${i} lacks results for ${[...open].join(",")}`);
      i = j - 1;
    } else if (m.role === "tool") {
      problems.push(`stray tool result at ${i}`);
    }
  }
  return problems;
}
