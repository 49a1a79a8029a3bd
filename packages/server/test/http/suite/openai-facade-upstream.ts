import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useFacadeWithScriptedModel } from "../../support/facade-fixture.js";
import { thrown } from "../../support/openai-client.js";
import type { Backend } from "../../support/test-server.js";

const shaped = (assistant_text: string, arc: string) => ({
  kind: "json" as const,
  body: { assistant_text, meta: { shape: { arc, active: [], parked: [], decisions: [], next: [] } } },
});

const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

/** The facade with SOL_LLM=openai against a scripted upstream: idempotency, window, memento, tools. */
export function openAiFacadeUpstreamSuite(backend: Backend): void {
  describe(`OpenAI facade (SOL_LLM=openai) on ${backend}`, () => {
    const fx = useFacadeWithScriptedModel(backend);
    const { lastMainBody } = fx;

    it("replays an idempotent retry: same completion id, no new model call; another body is a 409", async () => {
      const body = {
        model: "sol",
        messages: [{ role: "user" as const, content: "Draft a packing list for a rainy weekend." }],
      };
      const options = { headers: { "idempotency-key": `idem-${backend}` } };
      const first = await fx.client.chat.completions.create(body, options).withResponse();
      expect(first.response.headers.get("idempotent-replayed")).toBeNull();
      const callsAfterFirst = fx.model.upstream.requestCount;
      expect(callsAfterFirst).toBeGreaterThan(0);

      const again = await fx.client.chat.completions.create(body, options).withResponse();
      expect(again.response.headers.get("idempotent-replayed")).toBe("true");
      expect(again.data).toEqual(first.data);
      expect(fx.model.upstream.requestCount).toBe(callsAfterFirst);

      const other = (await thrown(() =>
        fx.client.chat.completions.create(
          { ...body, messages: [{ role: "user", content: "Something else entirely." }] },
          options,
        ),
      )) as InstanceType<typeof OpenAI.ConflictError>;
      expect(other).toBeInstanceOf(OpenAI.ConflictError);
      expect(other.error).toMatchObject({ code: "idempotency_conflict" });
      expect(other.headers?.get("x-should-retry")).toBe("false");
      expect(fx.model.upstream.requestCount).toBe(callsAfterFirst);
    });

    it("without an idempotency key every call is a new turn", async () => {
      const body = { model: "sol", messages: [{ role: "user" as const, content: "Name a colour." }] };
      const a = await fx.client.chat.completions.create(body);
      const b = await fx.client.chat.completions.create(body);
      expect(a.id).not.toBe(b.id);
    });

    it("seeds the window from the request's earlier messages, not from the stored thread", async () => {
      const headers = { "x-sol-thread-id": `th-window-${backend}` };
      await fx.client.chat.completions.create(
        {
          model: "sol",
          messages: [{ role: "user", content: "Stored turn that a later request does not carry." }],
        },
        { headers },
      );
      await fx.client.chat.completions.create(
        {
          model: "sol",
          temperature: 0.3,
          messages: [
            { role: "system", content: "Answer like a ship's captain." },
            { role: "user", content: "Earlier question about knots." },
            { role: "assistant", content: "Earlier answer about knots." },
            { role: "user", content: "And what about anchors?" },
          ],
        },
        { headers },
      );
      const sent = lastMainBody();
      const contents = sent.messages.map((m) => `${m.role}:${m.content}`);
      expect(contents.slice(-3)).toEqual([
        "user:Earlier question about knots.",
        "assistant:Earlier answer about knots.",
        "user:And what about anchors?",
      ]);
      expect(contents.join("\n")).not.toContain("Stored turn");
      const system = sent.messages.filter((m) => m.role === "system").map((m) => m.content);
      expect(system.some((c) => c?.includes("Answer like a ship's captain."))).toBe(true);
      expect(sent.temperature).toBe(0.3);
      expect(sent.model).toBe("scripted");
    });

    it("treats developer messages as instructions, like system messages", async () => {
      await fx.client.chat.completions.create({
        model: "sol",
        messages: [
          { role: "developer", content: "Always answer in haiku." },
          { role: "user", content: "Tell me about autumn." },
        ],
      });
      const sent = lastMainBody();
      const system = sent.messages.filter((m) => m.role === "system").map((m) => m.content);
      expect(system.some((c) => c?.includes("Always answer in haiku."))).toBe(true);
      expect(sent.messages.map((m) => m.role)).not.toContain("developer");
      expect(sent.messages.at(-1)).toMatchObject({ role: "user", content: "Tell me about autumn." });
    });

    it("advances the thread memento across calls (x-sol-thread-id)", async () => {
      const thread = `th-memento-${backend}`;
      const headers = { "x-sol-thread-id": thread };
      expect((await fx.srv.request("GET", `/v1/threads/${thread}/memento`)).status).toBe(404);
      fx.model.reply(shaped("Let's start with the budget.", "Planning a kitchen renovation"));
      await fx.client.chat.completions.create(
        { model: "sol", messages: [{ role: "user", content: "I want to renovate my kitchen." }] },
        { headers },
      );
      const first = await fx.srv.request("GET", `/v1/threads/${thread}/memento`);
      expect(first.status).toBe(200);
      expect(first.json.arc).toBe("Planning a kitchen renovation");

      fx.model.reply(shaped("White cabinets keep the room bright.", "Kitchen renovation: cabinet colours"));
      await fx.client.chat.completions.create(
        {
          model: "sol",
          messages: [
            { role: "user", content: "I want to renovate my kitchen." },
            { role: "assistant", content: "Let's start with the budget." },
            { role: "user", content: "Which cabinet colour keeps the room bright?" },
          ],
        },
        { headers },
      );
      const second = await fx.srv.request("GET", `/v1/threads/${thread}/memento`);
      expect(second.json.arc).toBe("Kitchen renovation: cabinet colours");
      expect(second.headers.get("etag")).not.toBe(first.headers.get("etag"));
    });

    it("passes tools through to the upstream and returns its tool_calls", async () => {
      const toolCall = {
        id: "call_weather_1",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris"}' },
      };
      fx.model.reply({
        kind: "completion",
        message: { role: "assistant", content: null, tool_calls: [toolCall] },
        finishReason: "tool_calls",
      });
      const mainBefore = fx.model.counts.main;
      const completion = await fx.client.chat.completions.create({
        model: "sol",
        messages: [{ role: "user", content: "What is the weather in Paris right now?" }],
        tools: [weatherTool],
        tool_choice: "auto",
      });
      expect(fx.model.counts.main - mainBefore).toBe(1);
      const sent = lastMainBody();
      expect(sent.tools).toEqual([weatherTool]);
      expect(sent.tool_choice).toBe("auto");
      const choice = completion.choices[0];
      expect(choice?.finish_reason).toBe("tool_calls");
      expect(choice?.message.content).toBeNull();
      expect(choice?.message.tool_calls).toEqual([toolCall]);

      // The tool result comes back after the last user message and reaches the model as text.
      fx.model.reply({ kind: "json", body: { assistant_text: "It is 18°C and sunny in Paris.", meta: {} } });
      const answer = await fx.client.chat.completions.create({
        model: "sol",
        tools: [weatherTool],
        messages: [
          { role: "user", content: "What is the weather in Paris right now?" },
          {
            role: "assistant",
            content: null,
            tool_calls: [toolCall as OpenAI.ChatCompletionMessageToolCall],
          },
          { role: "tool", tool_call_id: "call_weather_1", content: '{"temp_c":18,"sky":"sunny"}' },
        ],
      });
      expect(answer.choices[0]?.message.content).toBe("It is 18°C and sunny in Paris.");
      // The user's message, then the call and its result exactly as the client sent them.
      expect(lastMainBody().messages.slice(-3)).toEqual([
        { role: "user", content: "What is the weather in Paris right now?" },
        { role: "assistant", content: null, tool_calls: [toolCall] },
        { role: "tool", tool_call_id: "call_weather_1", content: '{"temp_c":18,"sky":"sunny"}' },
      ]);
      // The stored turn (what later turns, routing and checkpoints see) carries the result as text.
      const stored = await fx.srv.server.store.messages.listRecent("default", "openai:default", 2);
      expect(stored[0]?.content).toContain('[tool result call_weather_1] {"temp_c":18,"sky":"sunny"}');
    });

    it("streams tool calls as a tool_calls delta with finish_reason tool_calls", async () => {
      const toolCall = {
        id: "call_weather_2",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Rome"}' },
      };
      fx.model.reply({
        kind: "completion",
        message: { role: "assistant", content: null, tool_calls: [toolCall] },
        finishReason: "tool_calls",
      });
      const stream = await fx.client.chat.completions.create({
        model: "sol",
        stream: true,
        messages: [{ role: "user", content: "What is the weather in Rome?" }],
        tools: [weatherTool],
      });
      const deltas: OpenAI.Chat.Completions.ChatCompletionChunk.Choice[] = [];
      for await (const chunk of stream) deltas.push(...chunk.choices);
      const calls = deltas.flatMap((d) => d.delta.tool_calls ?? []);
      expect(calls).toEqual([{ index: 0, ...toolCall }]);
      expect(deltas.at(-1)?.finish_reason).toBe("tool_calls");
    });

    it("marks a 502 from an upstream 400 as final, so an OpenAI client with retries sends it once", async () => {
      fx.model.reply({
        kind: "status",
        status: 400,
        body: { error: { message: "temperature is out of range" } },
      });
      const before = fx.model.counts.main;
      const retrying = new OpenAI({
        baseURL: `${fx.srv.url}/v1`,
        apiKey: "sk-test",
        maxRetries: 2,
        timeout: 20_000,
      });
      const err = (await thrown(() =>
        retrying.chat.completions.create({
          model: "sol",
          temperature: 1.5,
          messages: [{ role: "user", content: "Draft a note to the landlord." }],
        }),
      )) as InstanceType<typeof OpenAI.APIError>;
      expect(err.status).toBe(502);
      expect(err.headers?.get("x-should-retry")).toBe("false");
      expect(err.message).toContain("temperature is out of range");
      expect(fx.model.counts.main - before).toBe(1);
    });

    it("maps an upstream failure to a 502 in OpenAI's shape", async () => {
      fx.model.reply(
        { kind: "status", status: 500 },
        { kind: "status", status: 500 },
        { kind: "status", status: 500 },
      );
      const err = (await thrown(() =>
        fx.client.chat.completions.create({
          model: "sol",
          messages: [{ role: "user", content: "Draft a note to the plumber." }],
        }),
      )) as InstanceType<typeof OpenAI.APIError>;
      expect(err).toBeInstanceOf(OpenAI.InternalServerError);
      expect(err.status).toBe(502);
      expect(err.error).toMatchObject({ type: "server_error", code: "provider_error" });
    });
  });
}
