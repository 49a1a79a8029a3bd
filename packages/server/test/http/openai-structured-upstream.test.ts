import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useFacadeWithScriptedModel } from "../support/facade-fixture.js";
import { thrown } from "../support/openai-client.js";

const schema = {
  type: "object",
  properties: { city: { type: "string" }, temperature: { type: "number" } },
  required: ["city", "temperature"],
  additionalProperties: false,
};
const responseFormat = {
  type: "json_schema" as const,
  json_schema: { name: "weather", schema, strict: true },
};

/** Structured output with SOL_LLM=openai: the upstream's replies are checked, not trusted. */
describe("response_format json_schema against a scripted upstream", () => {
  const fx = useFacadeWithScriptedModel("sqlite-memory");

  it("asks the upstream for the schema and returns its valid document", async () => {
    fx.model.reply({ kind: "text", content: '{"city":"Paris","temperature":18}' });
    const completion = await fx.client.chat.completions.create({
      model: "sol",
      messages: [{ role: "user", content: "Weather in Paris as JSON" }],
      response_format: responseFormat,
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? "")).toEqual({
      city: "Paris",
      temperature: 18,
    });
    // The prompt asks for the document and shows the schema; the adapter sends JSON mode at least
    // (json_schema natively once it honours LlmRequest.responseFormat).
    const sent = fx.lastMainBody();
    expect(JSON.stringify(sent.messages)).toContain("Structured output: instead of the output envelope");
    expect(["json_object", "json_schema"]).toContain((sent.response_format as { type: string }).type);
  });

  it("regenerates once on a mismatch, with the schema error as the directive, and traces it", async () => {
    fx.model.reply(
      { kind: "text", content: '{"city":"Paris","temperature":"warm"}' },
      { kind: "text", content: '{"city":"Paris","temperature":21}' },
    );
    const { data, response } = await fx.client.chat.completions
      .create({
        model: "sol",
        messages: [{ role: "user", content: "Weather in Paris as JSON, again" }],
        response_format: responseFormat,
      })
      .withResponse();
    expect(JSON.parse(data.choices[0]?.message.content ?? "")).toEqual({ city: "Paris", temperature: 21 });
    const directive = JSON.stringify(fx.lastMainBody().messages);
    expect(directive).toContain("structured_output_mismatch");
    expect(directive).toContain("/temperature must be number");
    const trace = await fx.srv.request("GET", `/v1/traces/${response.headers.get("x-sol-trace-id")}`);
    const drift = trace.json.events.find((e: { phase: string }) => e.phase === "drift");
    expect(drift.metadata.violations).toContain("structured_output_mismatch");
  });

  it("answers a 502 naming the mismatch when the regeneration is not valid either", async () => {
    fx.model.reply({ kind: "text", content: "It is sunny." }, { kind: "text", content: '{"city":"Paris"}' });
    const error = await thrown(() =>
      fx.client.chat.completions.create({
        model: "sol",
        messages: [{ role: "user", content: "Weather in Lyon as JSON" }],
        response_format: responseFormat,
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain("response format");
  });

  it("json_object: a reply that is not one JSON object is regenerated", async () => {
    fx.model.reply(
      { kind: "text", content: "[1, 2]" },
      { kind: "text", content: '```json\n{"ok": true}\n```' },
    );
    const completion = await fx.client.chat.completions.create({
      model: "sol",
      messages: [{ role: "user", content: "Answer in JSON" }],
      response_format: { type: "json_object" },
    });
    expect(completion.choices[0]?.message.content).toBe('{"ok": true}');
  });
});
