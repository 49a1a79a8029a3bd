import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpReply, startTestServer, type TestServer } from "../support/test-server.js";

type Response = { content?: Record<string, unknown>; headers?: Record<string, unknown> };
type Operation = { responses: Record<string, Response>; parameters?: { in: string; name: string }[] };
type Doc = { paths: Record<string, Record<string, Operation>> };

const KEY = { authorization: "Bearer key-a" };

/** The documented operation a request reaches: path templates matched segment by segment, fixed ones first. */
function operationFor(doc: Doc, method: string, path: string): Operation | undefined {
  const segments = path.split("?")[0]?.split("/") ?? [];
  const params = (template: string) => template.split("{").length;
  const templates = Object.keys(doc.paths).sort((a, b) => params(a) - params(b));
  for (const template of templates) {
    const parts = template.split("/");
    const same =
      parts.length === segments.length && parts.every((p, i) => p.startsWith("{") || p === segments[i]);
    const operation = doc.paths[template]?.[method.toLowerCase()];
    if (same && operation) return operation;
  }
  return undefined;
}

/** Why an answer is not what the document says the operation answers, or null. */
function undocumented(doc: Doc, method: string, path: string, reply: HttpReply): string | null {
  const operation = operationFor(doc, method, path);
  if (!operation) return `${method} ${path}: no operation`;
  const response = operation.responses[String(reply.status)];
  if (!response) return `${method} ${path}: status ${reply.status} not documented`;
  const type = (reply.headers.get("content-type") ?? "").split(";")[0] ?? "";
  if (reply.text !== "" && !response.content?.[type]) {
    return `${method} ${path}: ${reply.status} as ${type} not documented`;
  }
  return null;
}

/** Headers of the API's own protocol (idempotency, concurrency, tracing, retries) a client must be told of. */
const PROTOCOL_HEADER =
  /^(etag|idempotent-replayed|retry-after|www-authenticate|x-should-retry|x-sol-.*|x-request-id)$/;

/** Protocol headers an answer carries that its documented response does not name. */
function undocumentedHeaders(doc: Doc, method: string, path: string, reply: HttpReply): string[] {
  const response = operationFor(doc, method, path)?.responses[String(reply.status)];
  const documented = Object.keys(response?.headers ?? {}).map((h) => h.toLowerCase());
  return [...reply.headers.keys()]
    .filter((h) => PROTOCOL_HEADER.test(h) && !documented.includes(h))
    .map((h) => `${method} ${path} ${reply.status}: ${h}`);
}

/** Every status and media type the server answers with is in /openapi.json for its operation. */
describe("/openapi.json documents what the routes answer", () => {
  let srv: TestServer;
  let limited: TestServer;
  let doc: Doc;
  beforeAll(async () => {
    srv = await startTestServer({
      backend: "sqlite-memory",
      env: { SOL_API_KEYS: "a:key-a", SOL_BODY_LIMIT: "4096" },
    });
    limited = await startTestServer({
      backend: "sqlite-memory",
      env: { SOL_API_KEYS: "a:key-a", SOL_RATE_LIMIT_PER_MIN: "1" },
    });
    doc = (await srv.request("GET", "/openapi.json")).json;
  });
  afterAll(async () => {
    await srv.close();
    await limited.close();
  });

  const check = (method: string, path: string, reply: HttpReply) => undocumented(doc, method, path, reply);

  it("documents 401 on every /v1 operation when keys are configured", async () => {
    const problems: (string | null)[] = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      if (!template.startsWith("/v1/")) continue;
      const path = template.replaceAll(/\{[^}]+\}/g, "x");
      for (const method of Object.keys(operations)) {
        const reply = await srv.request(method.toUpperCase(), path, method === "get" ? undefined : {});
        expect(reply.status).toBe(401);
        problems.push(check(method.toUpperCase(), path, reply));
      }
    }
    expect(problems.filter((p) => p !== null)).toEqual([]);
  });

  it("documents 413, malformed JSON and the rate budget's 429", async () => {
    const big = { requestId: "r-big", threadId: "t", message: "x".repeat(8000) };
    const problems = [
      check("POST", "/v1/chat", await srv.request("POST", "/v1/chat", big, KEY)),
      check("POST", "/v1/chat/completions", await srv.request("POST", "/v1/chat/completions", big, KEY)),
      check("POST", "/v1/actions/x/defer", await srv.request("POST", "/v1/actions/x/defer", "{", KEY)),
    ];
    await limited.request("GET", "/v1/models", undefined, KEY);
    const spent = await limited.request("GET", "/v1/tasks", undefined, KEY);
    expect(spent.status).toBe(429);
    const limitedDoc: Doc = (await limited.request("GET", "/openapi.json")).json;
    problems.push(undocumented(limitedDoc, "GET", "/v1/tasks", spent));
    expect(problems.filter((p) => p !== null)).toEqual([]);
  });

  it("documents the event streams and the iCalendar file", async () => {
    const turn = { requestId: "r-sse", threadId: "t", message: "Hello there" };
    const sse = { ...KEY, accept: "text/event-stream" };
    const completion = { model: "sol", stream: true, messages: [{ role: "user", content: "Hello" }] };
    const replies: [string, string, HttpReply][] = [
      ["POST", "/v1/chat", await srv.request("POST", "/v1/chat", turn, sse)],
      ["POST", "/v1/chat/completions", await srv.request("POST", "/v1/chat/completions", completion, KEY)],
      [
        "POST",
        "/v1/responses",
        await srv.request("POST", "/v1/responses", { input: "Hi", stream: true }, KEY),
      ],
      ["GET", "/v1/calendar/events.ics", await srv.request("GET", "/v1/calendar/events.ics", undefined, KEY)],
      [
        "GET",
        "/v1/calendar/events.ics?thread_id=",
        await srv.request("GET", "/v1/calendar/events.ics?thread_id=", undefined, KEY),
      ],
    ];
    expect(replies.map(([, , r]) => r.status)).toEqual([200, 200, 200, 200, 400]);
    expect(replies.map(([m, p, r]) => check(m, p, r)).filter((p) => p !== null)).toEqual([]);
  });

  it("documents the headers the routes read and set", async () => {
    const turn = { requestId: "r-h", threadId: "t-h", message: "Hello there" };
    const memento = (await srv.request("POST", "/v1/chat", turn, KEY)).json.threadMemento;
    const read = await srv.request("GET", "/v1/threads/t-h/memento", undefined, KEY);
    const completion = { model: "sol", messages: [{ role: "user", content: "Hello" }] };
    const replies: [string, string, HttpReply][] = [
      ["POST", "/v1/chat", await srv.request("POST", "/v1/chat", turn, KEY)],
      ["GET", "/v1/threads/t-h/memento", read],
      [
        "GET",
        "/v1/threads/t-h/memento",
        await srv.request("GET", "/v1/threads/t-h/memento", undefined, {
          ...KEY,
          "if-none-match": read.headers.get("etag") ?? "",
        }),
      ],
      [
        "PUT",
        "/v1/threads/t-h/memento",
        await srv.request("PUT", "/v1/threads/t-h/memento", memento, {
          ...KEY,
          "if-match": read.headers.get("etag") ?? "",
        }),
      ],
      ["POST", "/v1/chat/completions", await srv.request("POST", "/v1/chat/completions", completion, KEY)],
      ["POST", "/v1/chat/completions", await srv.request("POST", "/v1/chat/completions", completion)],
      [
        "POST",
        "/v1/responses",
        await srv.request(
          "POST",
          "/v1/responses",
          { input: "Remind me to call mom tomorrow at 9" },
          {
            ...KEY,
            "x-sol-timezone": "Europe/Paris",
          },
        ),
      ],
      [
        "POST",
        "/v1/responses",
        await srv.request("POST", "/v1/responses", { input: "Hi", previous_response_id: "resp_none" }, KEY),
      ],
      [
        "POST",
        "/v1/checkpoints/evaluate",
        await srv.request(
          "POST",
          "/v1/checkpoints/evaluate",
          { sessionId: "s", event: { type: "session_start" } },
          KEY,
        ),
      ],
    ];
    expect(replies.map(([, , r]) => r.status)).toEqual([200, 200, 304, 200, 200, 401, 200, 404, 200]);
    expect(replies[6]?.[2].headers.get("x-sol-actions")).toContain("create_reminder");
    expect(replies.flatMap(([m, p, r]) => undocumentedHeaders(doc, m, p, r))).toEqual([]);
    const spent = await limited.request("GET", "/v1/tasks", undefined, KEY);
    const limitedDoc: Doc = (await limited.request("GET", "/openapi.json")).json;
    expect(undocumentedHeaders(limitedDoc, "GET", "/v1/tasks", spent)).toEqual([]);
    // The conditional requests of the memento protocol (a PUT without either is a 428).
    const named = (method: string) =>
      (operationFor(doc, method, "/v1/threads/x/memento")?.parameters ?? [])
        .filter((p) => p.in === "header")
        .map((p) => p.name.toLowerCase());
    expect(named("PUT")).toEqual(expect.arrayContaining(["if-match", "if-none-match"]));
    expect(named("GET")).toContain("if-none-match");
    // A 304 carries its ETag and no body.
    expect(operationFor(doc, "GET", "/v1/threads/x/memento")?.responses["304"]?.content).toBeUndefined();
  });

  it("documents null where the routes accept it (OpenAPI 3.0 reads nullable only beside a type)", () => {
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== "object") return;
      const record = node as Record<string, unknown>;
      if (record.nullable === true && record.type === undefined) untyped.push(at);
      for (const [key, value] of Object.entries(record)) walk(value, `${at}/${key}`);
    };
    walk(doc.paths, "");
    expect(untyped).toEqual([]);
    // The assistant's tool-call message, as OpenAI clients send it back: content null.
    type Node = { properties: Record<string, Node>; items: { oneOf: Node[] }; anyOf: Node[]; enum: string[] };
    const request = doc.paths["/v1/chat/completions"]?.post as unknown as {
      requestBody: { content: Record<string, { schema: Node }> };
    };
    const messages = request.requestBody.content["application/json"]?.schema.properties.messages;
    const assistant = messages?.items.oneOf.find((m) => m.properties.role?.enum[0] === "assistant");
    const content = assistant?.properties.content?.anyOf ?? [];
    expect(content.map((branch) => (branch as unknown as { nullable?: boolean }).nullable)).toEqual([
      true,
      true,
    ]);
  });
});
