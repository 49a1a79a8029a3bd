import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { generateObject, generateText, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestServer, type TestServer } from "../support/test-server.js";

const Recipe = z.object({
  name: z.string(),
  servings: z.number().int().min(1),
  ingredients: z.array(z.object({ item: z.string(), grams: z.number() })).min(1),
});

/**
 * The default paths of two widely used client libraries against a running server (offline provider):
 * the AI SDK (`ai@6`, `@ai-sdk/openai@3`, whose default model calls the Responses API) and LangChain
 * (`@langchain/openai@1`: Chat Completions by default, the Responses API with `useResponsesApi`).
 */
describe("AI SDK and LangChain against the facades", () => {
  let srv: TestServer;
  /** Path and body of each request the libraries sent, to check which API their default path uses. */
  const sent: { path: string; body: Record<string, unknown> }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    sent.push({ path: url.pathname, body: typeof init?.body === "string" ? JSON.parse(init.body) : {} });
    return fetch(input, init);
  };
  const lastSent = () => sent.at(-1) ?? { path: "", body: {} };
  beforeAll(async () => {
    srv = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await srv.close();
  });

  const aiSdk = () => createOpenAI({ baseURL: `${srv.url}/v1`, apiKey: "sk-test", fetch: recording });
  const langchain = (fields: Record<string, unknown> = {}) =>
    new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      maxRetries: 0,
      configuration: { baseURL: `${srv.url}/v1`, fetch: recording },
      ...fields,
    });

  it("AI SDK generateText (default provider call: the Responses API)", async () => {
    const { text, response } = await generateText({
      model: aiSdk()("gpt-4o-mini"),
      prompt: "Help me plan the garden for spring.",
    });
    expect(text).toContain("Help me plan the garden for spring.");
    expect(response.id).toMatch(/^resp_/);
    expect(lastSent().path).toBe("/v1/responses");
  });

  it("AI SDK streamText streams the Responses events into text", async () => {
    const result = streamText({
      model: aiSdk()("gpt-4o-mini"),
      prompt: "Write a note about the weekly meeting.",
    });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    expect(text).toContain("weekly meeting");
  });

  it("AI SDK generateObject gets an object valid against its schema", async () => {
    const { object } = await generateObject({
      model: aiSdk()("gpt-4o-mini"),
      schema: Recipe,
      prompt: "Give me a pancake recipe.",
    });
    expect(Recipe.safeParse(object).success).toBe(true);
    expect(lastSent().path).toBe("/v1/responses");
    expect(lastSent().body.text).toMatchObject({ format: { type: "json_schema" } });
  });

  it("AI SDK generateText over Chat Completions (provider.chat)", async () => {
    const { text } = await generateText({
      model: aiSdk().chat("gpt-4o-mini"),
      prompt: "Hello there, how are you?",
    });
    expect(text).toContain("Hello there");
  });

  it("LangChain ChatOpenAI invoke (default: Chat Completions)", async () => {
    const reply = await langchain().invoke("Help me plan the garden for spring.");
    expect(String(reply.content)).toContain("Help me plan the garden for spring.");
    expect(lastSent().path).toBe("/v1/chat/completions");
  });

  it("LangChain ChatOpenAI with useResponsesApi: true", async () => {
    const reply = await langchain({ useResponsesApi: true }).invoke("Help me plan the garden for spring.");
    expect(reply.text).toContain("Help me plan the garden for spring.");
    expect(lastSent().path).toBe("/v1/responses");
  });

  it("LangChain withStructuredOutput returns an object valid against the schema", async () => {
    const recipe = await langchain().withStructuredOutput(Recipe).invoke("Give me a pancake recipe.");
    expect(Recipe.safeParse(recipe).success).toBe(true);
    expect(lastSent().body.response_format).toMatchObject({ type: "json_schema" });
    const viaResponses = await langchain({ useResponsesApi: true })
      .withStructuredOutput(Recipe)
      .invoke("Give me a pancake recipe.");
    expect(Recipe.safeParse(viaResponses).success).toBe(true);
    expect(lastSent().path).toBe("/v1/responses");
  });
});
