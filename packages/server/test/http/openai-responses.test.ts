import OpenAI from "openai";
import { zodTextFormat } from "openai/helpers/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { facadeClient, thrown } from "../support/openai-client.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/** `POST /v1/responses` with the offline provider, driven by the official `openai` client. */
describe("OpenAI Responses facade (offline provider)", () => {
  let srv: TestServer;
  let client: OpenAI;
  beforeAll(async () => {
    srv = await startTestServer({ backend: "sqlite-memory" });
    client = facadeClient(srv.url);
  });
  afterAll(async () => {
    await srv.close();
  });

  it("responses.create answers a string input in the Responses format", async () => {
    const response = await client.responses.create({
      model: "sol",
      instructions: "Be brief.",
      input: "Help me plan the garden for spring.",
    });
    expect(response.object).toBe("response");
    expect(response.id).toMatch(/^resp_tx_/);
    expect(response.status).toBe("completed");
    expect(response.output_text).toContain("Help me plan the garden for spring.");
    const [item] = response.output;
    expect(item?.type).toBe("message");
    expect(response.instructions).toBe("Be brief.");
    expect(response.usage?.total_tokens).toBe(
      (response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0),
    );
  });

  it("streams the Responses event types in order, and the deltas join to the text", async () => {
    const stream = await client.responses.create({
      model: "sol",
      input: [
        {
          role: "user",
          content: [{ type: "input_text", text: "Write a short note about the weekly team meeting." }],
        },
      ],
      stream: true,
    });
    const types: string[] = [];
    const sequence: number[] = [];
    let text = "";
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response;
    }
    const firstOf = (t: string) => types.indexOf(t);
    const order = [
      "response.created",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ].map(firstOf);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(sequence).toEqual(sequence.map((_, i) => i));
    expect(text).toContain("weekly team meeting");
    const finalText = completed?.output.flatMap((o) =>
      o.type === "message" ? o.content.map((c) => (c.type === "output_text" ? c.text : "")) : [],
    );
    expect(finalText?.join("")).toBe(text);
  });

  it("previous_response_id continues that response's thread; an unknown id is a 404", async () => {
    const first = await client.responses.create(
      { model: "sol", input: "I decided to paint the fence blue." },
      { headers: { "x-sol-thread-id": "responses-chain" } },
    );
    const { data: second, response: raw } = await client.responses
      .create({ model: "sol", input: "What did I decide?", previous_response_id: first.id })
      .withResponse();
    expect(raw.headers.get("x-sol-thread-id")).toBe("responses-chain");
    expect(second.previous_response_id).toBe(first.id);
    const messages = await srv.request("GET", "/v1/threads/responses-chain/messages");
    expect(messages.json.messages.map((m: { content: string }) => m.content)).toContain("What did I decide?");
    const error = await thrown(() =>
      client.responses.create({ model: "sol", input: "Hello", previous_response_id: "resp_nope" }),
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const body = (error as InstanceType<typeof OpenAI.NotFoundError>).error as {
      param?: string;
      code?: string;
    };
    expect(body.param).toBe("previous_response_id");
    expect(body.code).toBe("not_found");
  });

  it("text.format json_schema: responses.parse gets a document valid against the Zod schema", async () => {
    const Event = z.object({
      title: z.string(),
      attendees: z.array(z.string()).min(2),
      priority: z.enum(["low", "high"]),
    });
    const response = await client.responses.parse({
      model: "sol",
      input: "Put the team meeting on my calendar.",
      text: { format: zodTextFormat(Event, "event") },
    });
    expect(Event.safeParse(response.output_parsed).success).toBe(true);
    expect(response.output_parsed?.attendees.length).toBeGreaterThanOrEqual(2);
  });

  it("replays the same idempotency-key with the same id; another body is a 409", async () => {
    const headers = { "idempotency-key": "responses-idem" };
    const a = await client.responses.create({ model: "sol", input: "Note: buy seeds." }, { headers });
    const { data: b, response } = await client.responses
      .create({ model: "sol", input: "Note: buy seeds." }, { headers })
      .withResponse();
    expect(b.id).toBe(a.id);
    expect(response.headers.get("idempotent-replayed")).toBe("true");
    const error = await thrown(() => client.responses.create({ model: "sol", input: "Other." }, { headers }));
    expect(error).toBeInstanceOf(OpenAI.ConflictError);
  });

  it("sends proposed actions in x-sol-actions, and on the last event of a live stream (x_sol_actions)", async () => {
    const request = { model: "sol", input: "Remind me to water the plants tomorrow at 9" };
    const expected = [
      { action_id: expect.any(String), action_kind: "create_reminder", action_label: "Create Reminder" },
    ];
    const plain = await client.responses.create(request).withResponse();
    expect(JSON.parse(plain.response.headers.get("x-sol-actions") ?? "[]")).toEqual(expected);
    // The stream began before the reply's actions were known: they come with response.completed.
    const streamed = await client.responses.create({ ...request, stream: true }).withResponse();
    let last: Record<string, unknown> = {};
    for await (const event of streamed.data) last = event as unknown as Record<string, unknown>;
    expect(last.type).toBe("response.completed");
    expect(last.x_sol_actions).toEqual(expected);
  });

  it("refuses input items it cannot read with a 400 naming the field", async () => {
    const error = await thrown(() =>
      client.responses.create({
        model: "sol",
        input: [
          {
            role: "user",
            content: [{ type: "input_image", image_url: "https://example.com/a.png", detail: "auto" }],
          },
        ],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain("input");
  });
});
