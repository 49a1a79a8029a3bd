import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useFacadeWithScriptedModel } from "../support/facade-fixture.js";

const weather = {
  type: "function" as const,
  name: "get_weather",
  description: "Current weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  strict: false,
};

/** `/v1/responses` with SOL_LLM=openai against a scripted upstream: tools and function call outputs. */
describe("Responses facade against a scripted upstream", () => {
  const fx = useFacadeWithScriptedModel("sqlite-memory");

  it("passes flat function tools on as Chat Completions tools and answers function_call items", async () => {
    const call = {
      id: "call_1",
      type: "function",
      function: { name: "get_weather", arguments: '{"city":"Lyon"}' },
    };
    fx.model.reply({
      kind: "completion",
      message: { role: "assistant", content: null, tool_calls: [call] },
      finishReason: "tool_calls",
    });
    const response = await fx.client.responses.create({
      model: "sol",
      input: "What is the weather in Lyon?",
      tools: [weather],
    });
    expect(fx.lastMainBody().tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: weather.description,
          parameters: weather.parameters,
          strict: false,
        },
      },
    ]);
    const item = response.output.find(
      (o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === "function_call",
    );
    expect(item).toMatchObject({ call_id: "call_1", name: "get_weather", arguments: '{"city":"Lyon"}' });

    // The client runs the function and sends the call and its output back.
    fx.model.reply({ kind: "json", body: { assistant_text: "Lyon is at 12°C.", meta: {} } });
    const answer = await fx.client.responses.create({
      model: "sol",
      tools: [weather],
      input: [
        { role: "user", content: "What is the weather in Lyon?" },
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Lyon"}' },
        { type: "function_call_output", call_id: "call_1", output: '{"temp_c":12}' },
      ],
    });
    expect(answer.output_text).toBe("Lyon is at 12°C.");
    expect(fx.lastMainBody().messages.slice(-2)).toEqual([
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "call_1", content: '{"temp_c":12}' },
    ]);
  });

  it("a reply cut at max_output_tokens is an incomplete response", async () => {
    fx.model.reply({
      kind: "completion",
      message: { role: "assistant", content: '{"assistant_text":"Once upon a' },
      finishReason: "length",
    });
    const response = await fx.client.responses.create({
      model: "sol",
      input: "Tell me a story",
      max_output_tokens: 5,
    });
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(response.output_text).toBe("Once upon a");
  });
});
