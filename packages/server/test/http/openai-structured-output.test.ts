import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { facadeClient, thrown } from "../support/openai-client.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

const Trip = z.object({
  destination: z.string().min(3),
  nights: z.number().int().min(2),
  kind: z.enum(["beach", "city", "mountain"]),
  stops: z.array(z.object({ name: z.string(), day: z.number().int() })).min(1),
  budget: z.object({ currency: z.string(), amount: z.number().nullable() }),
});

/** Structured output on /v1/chat/completions with the offline provider, through the official client. */
describe("Chat Completions response_format (offline provider)", () => {
  let srv: TestServer;
  let client: OpenAI;
  beforeAll(async () => {
    srv = await startTestServer({ backend: "sqlite-memory" });
    client = facadeClient(srv.url);
  });
  afterAll(async () => {
    await srv.close();
  });

  it("chat.completions.parse with a Zod schema gets one document valid against it", async () => {
    const completion = await client.chat.completions.parse({
      model: "sol",
      messages: [{ role: "user", content: "Plan a trip for me." }],
      response_format: zodResponseFormat(Trip, "trip"),
    });
    const parsed = completion.choices[0]?.message.parsed;
    expect(parsed).not.toBeNull();
    expect(Trip.safeParse(parsed).success).toBe(true);
    expect(parsed?.nights).toBeGreaterThanOrEqual(2);
    expect(parsed?.stops.length).toBeGreaterThanOrEqual(1);
  });

  it("json_object answers one JSON object as the content, streamed and not", async () => {
    const request = {
      model: "sol",
      messages: [{ role: "user" as const, content: "Answer in JSON: what is on my list?" }],
      response_format: { type: "json_object" as const },
    };
    const completion = await client.chat.completions.create(request);
    const content = completion.choices[0]?.message.content ?? "";
    const value = JSON.parse(content);
    expect(typeof value).toBe("object");
    expect(Array.isArray(value)).toBe(false);
    const stream = await client.chat.completions.create({ ...request, stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(typeof JSON.parse(text)).toBe("object");
  });

  it("refuses a schema that is not a JSON Schema with a 400 naming the field", async () => {
    const error = await thrown(() =>
      client.chat.completions.create({
        model: "sol",
        messages: [{ role: "user", content: "hi" }],
        response_format: {
          type: "json_schema",
          json_schema: { name: "bad", schema: { type: "object", properties: { a: { type: 12 } } } },
        },
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(JSON.stringify((error as InstanceType<typeof OpenAI.BadRequestError>).error)).toContain(
      "response_format.json_schema.schema",
    );
  });

  it("sends the proposed actions in x-sol-actions, and the zone from x-sol-timezone reaches the chip", async () => {
    const { data, response } = await client.chat.completions
      .create(
        { model: "sol", messages: [{ role: "user", content: "Remind me to call mom tomorrow at 9" }] },
        { headers: { "x-sol-timezone": "Asia/Tokyo" } },
      )
      .withResponse();
    expect(data.choices[0]?.message.content).toContain("call mom");
    const actions = JSON.parse(response.headers.get("x-sol-actions") ?? "[]");
    expect(actions).toEqual([
      { action_id: expect.any(String), action_kind: "create_reminder", action_label: "Create Reminder" },
    ]);
    const action = await srv.request("GET", `/v1/actions/${actions[0].action_id}`);
    expect(action.json.action_summary_bullets.join(" ")).toContain("(Asia/Tokyo)");
  });

  it("refuses an unknown x-sol-timezone with a 400 naming the header", async () => {
    const error = await thrown(() =>
      client.chat.completions.create(
        { model: "sol", messages: [{ role: "user", content: "hi" }] },
        { headers: { "x-sol-timezone": "Mars/Olympus" } },
      ),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(JSON.stringify((error as InstanceType<typeof OpenAI.BadRequestError>).error)).toContain(
      "x-sol-timezone",
    );
  });
});
