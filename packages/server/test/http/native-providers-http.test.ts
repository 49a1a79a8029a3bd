import {
  MODEL_BEHAVIOURS,
  startAnthropicUpstream,
  startGeminiUpstream,
  type WireUpstream,
} from "@solserver/harness";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facadeClient, thrown } from "../support/openai-client.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Body = Record<string, unknown>;
interface SseEvent {
  readonly event: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed event payloads are asserted loosely
  readonly data: any;
}

function sseEvents(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.includes("data:"))
    .map((block) => {
      const lines = block.split("\n");
      const event =
        lines
          .find((l) => l.startsWith("event:"))
          ?.slice(6)
          .trim() ?? "message";
      const data = lines
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trim())
        .join("\n");
      return { event, data: JSON.parse(data) };
    });
}

const envelope = (text: string) =>
  JSON.stringify({
    assistant_text: text,
    meta: { shape: { arc: "testing", active: ["providers"], parked: [], decisions: [], next: [] } },
  });

for (const kind of ["anthropic", "google"] as const) {
  describe(`SOL_LLM=${kind} end to end through POST /v1/chat`, () => {
    let upstream: WireUpstream;
    let backup: WireUpstream;
    let srv: TestServer;
    const modelOf = (index: number) => {
      const request = upstream.requests[index];
      if (kind === "anthropic") return (request?.body as Body | undefined)?.model;
      return /models\/([^:]+):/.exec(request?.path ?? "")?.[1];
    };

    beforeAll(async () => {
      upstream = await (kind === "anthropic" ? startAnthropicUpstream() : startGeminiUpstream());
      backup = await startGeminiUpstream();
      srv = await startTestServer({
        backend: "sqlite-memory",
        env: {
          SOL_LLM: kind,
          SOL_LLM_BASE_URL: upstream.url,
          SOL_LLM_API_KEY: `key-${kind}-e2e`,
          SOL_LLM_MODEL: `${kind}-main`,
          SOL_SELECTOR_MODEL: `${kind}-cheap`,
          SOL_LLM_HEADERS: JSON.stringify({ "x-proxy-auth": "proxy-token-e2e" }),
          SOL_LLM_MAX_RETRIES: "0",
          SOL_LLM_FALLBACKS: JSON.stringify([
            { provider: "google", model: "gemini-backup", baseUrl: backup.url, apiKey: "key-backup" },
          ]),
        },
      });
    });
    afterAll(async () => {
      await srv?.close();
      await upstream?.close();
      await backup?.close();
    });

    it("answers a JSON turn from the model's envelope, asking for it with structured output", async () => {
      const before = upstream.requests.length;
      upstream.enqueue({ kind: "reply", text: envelope(`Hello from ${kind}.`) });
      const res = await srv.request("POST", "/v1/chat", {
        requestId: `${kind}-json-1`,
        threadId: `${kind}-thread`,
        message: "Plan my afternoon.",
      });
      expect(res.status).toBe(200);
      expect(res.json.modeDecision.step).toBe(1);
      expect(res.json.assistant.content).toBe(`Hello from ${kind}.`);
      expect(res.json.validation.passed).toBe(true);
      expect(res.json.threadMemento?.arc).toBe("testing");
      const sent = upstream.requests[before];
      expect(sent?.headers["x-proxy-auth"]).toBe("proxy-token-e2e");
      const body = sent?.body as Body;
      if (kind === "anthropic") {
        expect(body.tool_choice).toMatchObject({ type: "any" });
        expect((body.tools as Body[])[0]?.input_schema).toMatchObject({ required: ["assistant_text"] });
      } else {
        const config = body.generationConfig as Body;
        expect(config.responseMimeType).toBe("application/json");
        expect(config.responseSchema).toMatchObject({ required: ["assistant_text"] });
      }
    });

    it("streams the turn as server-sent events ending in final", async () => {
      upstream.enqueue({ kind: "reply", text: envelope("Streamed reply."), chunkDelayMs: 5 });
      const res = await srv.request(
        "POST",
        "/v1/chat",
        { requestId: `${kind}-sse-1`, threadId: `${kind}-thread-sse`, message: "Plan a streamed reply." },
        { accept: "text/event-stream" },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const events = sseEvents(res.text);
      const final = events.find((e) => e.event === "final");
      expect(final?.data.assistant.content).toBe("Streamed reply.");
      const deltas = events.filter((e) => e.event === "delta").map((e) => e.data.text as string);
      expect(deltas.join("")).toBe("Streamed reply.");
    });

    it("refuses facade tools with a 400 naming the field instead of dropping them", async () => {
      const before = upstream.requests.length;
      const client = facadeClient(srv.url);
      const tool = { name: "get_weather", parameters: { type: "object", properties: {} } };
      const chat = await thrown(() =>
        client.chat.completions.create({
          model: "sol",
          messages: [{ role: "user", content: "Weather in Lyon?" }],
          tools: [{ type: "function", function: tool }],
        }),
      );
      expect(chat).toBeInstanceOf(OpenAI.BadRequestError);
      expect((chat as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("tools");
      expect((chat as Error).message).toContain(`the ${kind} provider does not pass OpenAI function tools`);
      const responses = await thrown(() =>
        client.responses.create({
          model: "sol",
          input: "Weather in Lyon?",
          tools: [{ type: "function", strict: false, ...tool }],
        }),
      );
      expect(responses).toBeInstanceOf(OpenAI.BadRequestError);
      expect((responses as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("tools");
      expect(upstream.requests.length).toBe(before);
    });

    it("streams a facade completion with the guarded release", async () => {
      const raw = envelope("Native streamed facade reply.");
      const chunks = raw.match(/.{1,12}/gs) ?? [];
      upstream.enqueue({ kind: "reply", text: raw, chunks, chunkDelayMs: 5 });
      const stream = await facadeClient(srv.url).chat.completions.create({
        model: "sol",
        stream: true,
        messages: [{ role: "user", content: "Plan a streamed reply." }],
      });
      const pieces: string[] = [];
      for await (const chunk of stream) {
        const piece = chunk.choices[0]?.delta.content;
        if (piece) pieces.push(piece);
      }
      expect(pieces.join("")).toBe("Native streamed facade reply.");
      expect(pieces.length).toBeGreaterThan(1);
    });

    it("runs the step-2 selector on SOL_SELECTOR_MODEL and the reply on SOL_LLM_MODEL", async () => {
      const before = upstream.requests.length;
      upstream.enqueue(
        { kind: "reply", text: '{"modeLabel":"companion"}' },
        { kind: "reply", text: envelope("Hi!") },
      );
      const res = await srv.request("POST", "/v1/chat", {
        requestId: `${kind}-selector-1`,
        threadId: `${kind}-thread-selector`,
        message: "Say hi.",
      });
      expect(res.status).toBe(200);
      expect(res.json.modeDecision.step).toBe(2);
      expect([modelOf(before), modelOf(before + 1)]).toEqual([`${kind}-cheap`, `${kind}-main`]);
    });

    it("a 429 moves the turn to the configured fallback and the trace names the move", async () => {
      const backupBefore = backup.requests.length;
      upstream.enqueue({ kind: "status", status: 429 });
      backup.enqueue({ kind: "reply", text: envelope("Backup answered.") });
      const res = await srv.request("POST", "/v1/chat", {
        requestId: `${kind}-fallback-1`,
        threadId: `${kind}-thread-fallback`,
        message: "Plan the fallback drill.",
        traceConfig: { level: "debug" },
      });
      expect(res.status).toBe(200);
      expect(res.json.assistant.content).toBe("Backup answered.");
      expect(backup.requests.length).toBe(backupBefore + 1);
      const moved = res.json.trace.events.find((e: { phase: string }) => e.phase === "provider_fallback");
      expect(moved?.metadata).toMatchObject({
        purpose: "main",
        from: `${kind}/${kind}-main`,
        to: "google/gemini-backup",
        status: 429,
      });
    });

    it("a 400 does not move: the turn fails with 502 provider_error", async () => {
      const backupBefore = backup.requests.length;
      upstream.enqueue({ kind: "status", status: 400 });
      const res = await srv.request("POST", "/v1/chat", {
        requestId: `${kind}-bad-1`,
        threadId: `${kind}-thread-bad`,
        message: "Plan a bad request.",
      });
      expect(res.status).toBe(502);
      expect(res.json.error.code).toBe("provider_error");
      expect(backup.requests.length).toBe(backupBefore);
    });

    it("a plain-text reply still answers the turn (the envelope parser judges it)", async () => {
      upstream.enqueue(
        { kind: "reply", text: MODEL_BEHAVIOURS.plainText },
        { kind: "reply", text: MODEL_BEHAVIOURS.plainText },
      );
      const res = await srv.request("POST", "/v1/chat", {
        requestId: `${kind}-plain-1`,
        threadId: `${kind}-thread-plain`,
        message: "Plan in plain words.",
      });
      expect(res.status).toBe(200);
      expect(res.json.assistant.content).toBe(MODEL_BEHAVIOURS.plainText);
    });
  });
}
