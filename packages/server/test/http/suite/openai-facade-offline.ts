import { createHash } from "node:crypto";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facadeClient, thrown } from "../../support/openai-client.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

/** The OpenAI-compatible facade with the offline provider, driven by the official `openai` client. */
export function openAiFacadeOfflineSuite(backend: Backend): void {
  describe(`OpenAI facade (offline provider) on ${backend}`, () => {
    let srv: TestServer;
    let client: OpenAI;
    beforeAll(async () => {
      srv = await startTestServer({ backend });
      client = facadeClient(srv.url);
    });
    afterAll(async () => {
      await srv.close();
    });

    it("answers a plain completion in OpenAI's format", async () => {
      const completion = await client.chat.completions.create({
        model: "sol",
        messages: [{ role: "user", content: "Help me plan the garden for spring." }],
      });
      expect(completion.object).toBe("chat.completion");
      expect(completion.id).toMatch(/^chatcmpl-tx_/);
      expect(completion.model).toBe("offline-v1");
      expect(Number.isInteger(completion.created)).toBe(true);
      expect(completion.choices).toHaveLength(1);
      const [choice] = completion.choices;
      expect(choice?.index).toBe(0);
      expect(choice?.finish_reason).toBe("stop");
      expect(choice?.message.role).toBe("assistant");
      expect(choice?.message.content).toContain("Help me plan the garden for spring.");
      // OpenAI always sends `refusal` (null unless the model refused); its types declare it required.
      expect(choice?.message.refusal).toBeNull();
      const usage = completion.usage;
      expect(usage?.prompt_tokens).toBeGreaterThan(0);
      expect(usage?.completion_tokens).toBeGreaterThan(0);
      expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    });

    it("honours max_tokens: the reply is cut there and finishes with 'length'", async () => {
      const ask = (max_tokens: number) =>
        client.chat.completions.create({
          model: "sol",
          max_tokens,
          messages: [{ role: "user", content: "Give me three ideas for a healthy lunch, with detail." }],
        });
      const short = await ask(8);
      expect(short.choices[0]?.finish_reason).toBe("length");
      expect(short.usage?.completion_tokens).toBeLessThanOrEqual(8);
      expect(short.choices[0]?.message.content?.length).toBeLessThanOrEqual(32);
      // A cap that ends the reply inside the envelope's opening leaves no text, not a fragment of JSON.
      for (const tiny of [1, 3]) {
        const cut = await ask(tiny);
        expect(cut.choices[0]?.finish_reason).toBe("length");
        expect(cut.choices[0]?.message.content).toBe("");
      }
      const roomy = await ask(4000);
      expect(roomy.choices[0]?.finish_reason).toBe("stop");
      expect(roomy.choices[0]?.message.content).toContain("healthy lunch");
    });

    it("streams chunks that end with a finish reason, and the replay has the same id and text", async () => {
      const key = `stream-${backend}`;
      const stream = await client.chat.completions.create(
        {
          model: "sol",
          stream: true,
          stream_options: { include_usage: true },
          messages: [{ role: "user", content: "Write a short note about the weekly team meeting." }],
        },
        { headers: { "idempotency-key": key } },
      );
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThanOrEqual(4);
      expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
      expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
      // Every choice carries OpenAI's documented fields, logprobs (null) included.
      for (const choice of chunks.flatMap((c) => c.choices)) {
        expect(choice).toMatchObject({ index: 0, logprobs: null });
        expect(choice).toHaveProperty("finish_reason");
        expect(choice).toHaveProperty("delta");
      }
      const finishes = chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter(Boolean);
      expect(finishes).toEqual(["stop"]);
      const usageChunk = chunks.at(-1);
      expect(usageChunk?.choices).toEqual([]);
      expect(usageChunk?.usage?.total_tokens).toBeGreaterThan(0);
      expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
      const streamed = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");

      const replay = await client.chat.completions
        .create(
          {
            model: "sol",
            messages: [{ role: "user", content: "Write a short note about the weekly team meeting." }],
          },
          { headers: { "idempotency-key": key } },
        )
        .withResponse();
      expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.data.id).toBe(chunks[0]?.id);
      expect(replay.data.created).toBe(chunks[0]?.created);
      expect(replay.data.choices[0]?.message.content).toBe(streamed);
    });

    it("puts the mode, breakpoint and trace id in headers; the trace id resolves to the turn's trace", async () => {
      const { data, response } = await client.chat.completions
        .create({ model: "sol", messages: [{ role: "user", content: "ok thanks" }] })
        .withResponse();
      const mode = response.headers.get("x-sol-mode");
      expect(mode).toMatch(/^[a-z_]+$/);
      expect(["must", "should", "skip"]).toContain(response.headers.get("x-sol-breakpoint"));
      const traceId = response.headers.get("x-sol-trace-id") ?? "";
      expect(traceId).toMatch(/^tr_/);
      expect(response.headers.get("x-sol-thread-id")).toBe("openai:default");
      const trace = await srv.request("GET", `/v1/traces/${traceId}`);
      expect(trace.status).toBe(200);
      const phases = trace.json.events.map((e: { phase: string }) => e.phase);
      expect(phases).toContain("breakpoint");
      const route = trace.json.events.find((e: { phase: string }) => e.phase === "route");
      expect(route.metadata.modeLabel).toBe(mode);
      const tx = trace.json.events[0].transmissionId as string;
      expect(data.id).toBe(`chatcmpl-${tx}`);
    });

    it("rejects an invalid request with OpenAI's error shape (BadRequestError)", async () => {
      const badRole = await thrown(() =>
        client.chat.completions.create({
          model: "sol",
          messages: [{ role: "narrator" as "user", content: "hello" }],
        }),
      );
      expect(badRole).toBeInstanceOf(OpenAI.BadRequestError);
      const err = badRole as InstanceType<typeof OpenAI.BadRequestError>;
      expect(err.status).toBe(400);
      expect(err.error).toMatchObject({ type: "invalid_request_error", param: "messages.0.role" });
      expect(err.message).toContain("messages.0.role");

      const noUser = (await thrown(() =>
        client.chat.completions.create({
          model: "sol",
          messages: [{ role: "system", content: "Be terse." }],
        }),
      )) as InstanceType<typeof OpenAI.BadRequestError>;
      expect(noUser).toBeInstanceOf(OpenAI.BadRequestError);
      expect(noUser.message).toContain("At least one user message is required.");

      const streamOptionsAlone = (await thrown(() =>
        client.chat.completions.create({
          model: "sol",
          stream_options: { include_usage: true },
          messages: [{ role: "user", content: "hi" }],
        }),
      )) as InstanceType<typeof OpenAI.BadRequestError>;
      expect(streamOptionsAlone).toBeInstanceOf(OpenAI.BadRequestError);
      expect(streamOptionsAlone.error).toMatchObject({ param: "stream_options" });

      const empty = (await thrown(() =>
        client.chat.completions.create({ model: "sol", messages: [] }),
      )) as InstanceType<typeof OpenAI.BadRequestError>;
      expect(empty).toBeInstanceOf(OpenAI.BadRequestError);
      // Each field named once in the sentence, however many rules it broke.
      expect(empty.message).toContain("check messages.");

      const tooLong = (await thrown(() =>
        client.chat.completions.create({
          model: "sol",
          messages: [
            { role: "system", content: "Be terse." },
            { role: "user", content: "x".repeat(20_001) },
          ],
        }),
      )) as InstanceType<typeof OpenAI.BadRequestError>;
      expect(tooLong).toBeInstanceOf(OpenAI.BadRequestError);
      expect(tooLong.error).toMatchObject({ param: "messages.1.content" });

      const twoChoices = (await thrown(() =>
        client.chat.completions.create({ model: "sol", n: 2, messages: [{ role: "user", content: "hi" }] }),
      )) as InstanceType<typeof OpenAI.BadRequestError>;
      expect(twoChoices.error).toMatchObject({ param: "n" });
      expect(twoChoices.message).toContain("Only n = 1 is supported.");

      const image = await thrown(() =>
        client.chat.completions.create({
          model: "sol",
          messages: [
            {
              role: "user",
              content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }],
            },
          ],
        }),
      );
      expect(image).toBeInstanceOf(OpenAI.BadRequestError);
    });

    it("validates the facade headers (thread id and idempotency key, 1..128 characters)", async () => {
      const err = (await thrown(() =>
        client.chat.completions.create(
          { model: "sol", messages: [{ role: "user", content: "hi" }] },
          { headers: { "x-sol-thread-id": "t".repeat(129) } },
        ),
      )) as InstanceType<typeof OpenAI.BadRequestError>;
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.error).toMatchObject({ param: "headers.x-sol-thread-id", code: "invalid_input" });
      const key = (await thrown(() =>
        client.chat.completions.create(
          { model: "sol", messages: [{ role: "user", content: "hi" }] },
          { headers: { "idempotency-key": "k".repeat(129) } },
        ),
      )) as InstanceType<typeof OpenAI.BadRequestError>;
      expect(key.error).toMatchObject({ param: "headers.idempotency-key" });
    });

    it("accepts text-part arrays as content", async () => {
      const completion = await client.chat.completions.create({
        model: "sol",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "Summarise " },
              { type: "text", text: "my reading list." },
            ],
          },
        ],
      });
      expect(completion.choices[0]?.message.content).toContain("Summarise my reading list.");
    });

    it("accepts an assistant message whose content holds a refusal part (as OpenAI allows)", async () => {
      const completion = await client.chat.completions.create({
        model: "sol",
        messages: [
          { role: "user", content: "Tell me a secret." },
          {
            role: "assistant",
            content: [
              { type: "text", text: "About that: " },
              { type: "refusal", refusal: "I cannot share secrets." },
            ],
          },
          { role: "user", content: "Then help me plan my reading list." },
        ],
      });
      expect(completion.choices[0]?.message.content).toContain("Then help me plan my reading list.");
    });

    it("names the trailing tool result, not the user's message, when together they are too long", async () => {
      const error = (await thrown(() =>
        client.chat.completions.create({
          model: "sol",
          messages: [
            { role: "user", content: "Summarise the page." },
            {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "c1", type: "function", function: { name: "fetch", arguments: "{}" } }],
            },
            { role: "tool", tool_call_id: "c1", content: "word ".repeat(5_000) },
          ],
        }),
      )) as InstanceType<typeof OpenAI.BadRequestError>;
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error.error).toMatchObject({ param: "messages.2.content", code: "invalid_input" });
    });

    it("keeps api.md's error shape on the rest of the API", async () => {
      const res = await srv.request("POST", "/v1/chat", { threadId: "t", message: "hi" });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("invalid_input");
      expect(res.json.error.type).toBeUndefined();
      expect(Array.isArray(res.json.error.details)).toBe(true);
    });

    it("answers unknown methods and paths under the facade's routes in OpenAI's error shape", async () => {
      for (const [method, path] of [
        ["GET", "/v1/chat/completions"],
        ["DELETE", "/v1/models"],
        ["GET", "/v1/models/sol/extra"],
      ] as const) {
        const res = await srv.request(method, path);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.json.error).toMatchObject({ type: "not_found_error", code: "not_found" });
      }
      // Elsewhere a missing route keeps api.md's shape.
      const other = await srv.request("GET", "/v1/nothing-here");
      expect(other.status).toBe(404);
      expect(other.json.error.code).toBe("not_found");
      expect(other.json.error.type).toBeUndefined();
    });

    it("a 400 names each bad field in details (api.md §2) beside OpenAI's param", async () => {
      const res = await srv.request("POST", "/v1/chat/completions", {
        model: 5,
        messages: [],
        temperature: 9,
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({
        type: "invalid_request_error",
        code: "invalid_input",
        param: "model",
      });
      const paths = (res.json.error.details as { path: string }[]).map((d) => d.path);
      expect(paths).toEqual(expect.arrayContaining(["model", "messages", "temperature"]));
    });

    it("answers URLs the router refuses under the facade's paths in OpenAI's error shape", async () => {
      for (const [method, path] of [
        ["GET", "/v1/models/%E0%A4%A"],
        ["POST", "/v1/chat/completions/%E0%A4%A"],
        ["GET", `/v1/models/${"m".repeat(3000)}`],
      ] as const) {
        const res = await srv.request(method, path);
        expect(res.status, `${method} ${path.slice(0, 40)}`).toBe(400);
        expect(res.json.error).toMatchObject({ type: "invalid_request_error", code: "invalid_input" });
      }
      const other = await srv.request("GET", "/v1/traces/%E0%A4%A");
      expect(other.status).toBe(400);
      expect(other.json.error.type).toBeUndefined();
    });

    it("refuses tools with the offline provider (400 naming SOL_LLM=openai)", async () => {
      const err = (await thrown(() =>
        client.chat.completions.create({
          model: "sol",
          messages: [{ role: "user", content: "What is the weather in Paris?" }],
          tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
        }),
      )) as InstanceType<typeof OpenAI.BadRequestError>;
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.message).toContain("tools require SOL_LLM=openai");
      expect(err.error).toMatchObject({ param: "tools", code: "invalid_input" });
    });

    it("documents the facade routes in /openapi.json", async () => {
      const res = await srv.request("GET", "/openapi.json");
      expect(res.status).toBe(200);
      expect(Object.keys(res.json.paths)).toEqual(
        expect.arrayContaining(["/v1/chat/completions", "/v1/models", "/v1/models/{model}"]),
      );
      expect(res.json.paths["/v1/chat/completions"].post.requestBody).toBeDefined();
      // Auth is off here, so no operation claims to need a key.
      expect(res.json.security).toBeUndefined();
    });

    it("lists the configured model and the sol alias", async () => {
      const ids: string[] = [];
      for await (const model of client.models.list()) ids.push(model.id);
      expect(ids).toEqual(["offline-v1", "sol"]);
      expect((await client.models.retrieve("sol")).owned_by).toBe("solserver");
      expect(await thrown(() => client.models.retrieve("gpt-nope"))).toBeInstanceOf(OpenAI.NotFoundError);
    });
  });

  describe(`OpenAI facade with API keys on ${backend}`, () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({
        backend,
        env: { SOL_API_KEYS: "alpha:key-alpha,alpha:key-alpha-2,beta:key-beta" },
      });
    });
    afterAll(async () => {
      await srv.close();
    });

    it("documents the bearer key in /openapi.json, applied to the API and not to /healthz", async () => {
      const res = await srv.request("GET", "/openapi.json");
      expect(res.status).toBe(200);
      expect(res.json.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
      expect(res.json.security).toEqual([{ bearer: [] }]);
      expect(res.json.paths["/healthz"].get.security).toEqual([]);
    });

    it("answers 401 (AuthenticationError) for a bad key, on completions and models", async () => {
      const bad = facadeClient(srv.url, "key-wrong");
      const err = (await thrown(() =>
        bad.chat.completions.create({ model: "sol", messages: [{ role: "user", content: "hi" }] }),
      )) as InstanceType<typeof OpenAI.AuthenticationError>;
      expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(err.error).toMatchObject({ type: "authentication_error", code: "unauthorized" });
      expect(await thrown(() => bad.models.list())).toBeInstanceOf(OpenAI.AuthenticationError);
    });

    it("gives each API key its own default thread, even two keys of one tenant", async () => {
      const ask = async (key: string, content: string) => {
        const { response } = await facadeClient(srv.url, key)
          .chat.completions.create({ model: "sol", messages: [{ role: "user", content }] })
          .withResponse();
        return response.headers.get("x-sol-thread-id") ?? "";
      };
      const alpha = await ask("key-alpha", "Let's plan a trip to Lisbon.");
      const alpha2 = await ask("key-alpha-2", "Let's plan a trip to Porto.");
      const beta = await ask("key-beta", "Let's plan a trip to Oslo.");
      expect(await ask("key-alpha", "And the museums?")).toBe(alpha);
      expect(new Set([alpha, alpha2, beta]).size).toBe(3);
      for (const id of [alpha, alpha2, beta]) expect(id).toMatch(/^openai:key-[0-9a-f]{24}$/);
      // Not a plain hash of the key (which a weak key could be guessed back from).
      const plain = createHash("sha256").update("key-alpha").digest("hex");
      expect(plain.startsWith(alpha.slice("openai:key-".length))).toBe(false);
      const asAlpha = { authorization: "Bearer key-alpha" };
      const memento = (id: string) => srv.request("GET", `/v1/threads/${id}/memento`, undefined, asAlpha);
      // Both alpha keys see both alpha threads (one tenant); beta's stays invisible.
      expect((await memento(alpha)).status).toBe(200);
      expect((await memento(alpha2)).status).toBe(200);
      expect((await memento(beta)).status).toBe(404);
    });
  });
}
