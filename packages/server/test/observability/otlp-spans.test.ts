import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureServerBuilt, type ServeProcess, startServeProcess } from "../support/built-cli.js";

// `sol serve` with OTEL_EXPORTER_OTLP_ENDPOINT exports its spans over OTLP/HTTP (JSON) to a real
// collector socket: the request span, the turn span, one span per awaited phase and one per model call,
// all in one trace whose id is also in the x-sol-trace-id header and on the request's log lines.

interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly attributes?: readonly { key: string; value: Record<string, unknown> }[];
}

let collector: Server;
const spans: OtlpSpan[] = [];
const paths: string[] = [];
let serve: ServeProcess;

beforeAll(async () => {
  await ensureServerBuilt();
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      paths.push(req.url ?? "");
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
      };
      for (const rs of body.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const { port } = collector.address() as AddressInfo;
  serve = await startServeProcess({
    SOL_DB_URL: "sqlite::memory:",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_BSP_SCHEDULE_DELAY: "100",
    SOL_LOG_LEVEL: "info",
    SOL_LOG_FORMAT: "pretty",
  });
}, 120_000);
afterAll(async () => {
  await serve?.stop();
  await new Promise((resolve) => collector?.close(resolve));
});

async function spansOfTrace(traceId: string, atLeast: number): Promise<OtlpSpan[]> {
  for (let i = 0; i < 100; i += 1) {
    const found = spans.filter((s) => s.traceId === traceId);
    if (found.length >= atLeast) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return spans.filter((s) => s.traceId === traceId);
}

describe("OpenTelemetry export (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  it("exports one trace per turn: request > turn > phases > model call", async () => {
    const res = await fetch(`${serve.url}/v1/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        requestId: "otel-1",
        threadId: "otel-t",
        message: "Plan a picnic for Saturday.",
      }),
    });
    expect(res.status).toBe(200);
    const traceId = res.headers.get("x-sol-trace-id") ?? "";
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const trace = await spansOfTrace(traceId, 11);
    expect(paths.every((p) => p === "/v1/traces")).toBe(true);
    const byName = new Map(trace.map((s) => [s.name, s]));
    const request = byName.get("POST /v1/chat");
    const turn = byName.get("sol.turn");
    const generate = byName.get("sol.turn.generate");
    const call = byName.get("sol.model.complete") ?? byName.get("sol.model.stream");
    expect(request?.parentSpanId ?? "").toBe("");
    expect(turn?.parentSpanId).toBe(request?.spanId);
    for (const phase of [
      "load",
      "route",
      "retrieval",
      "assemble",
      "generate",
      "reply",
      "actions",
      "commit",
    ]) {
      expect(byName.get(`sol.turn.${phase}`)?.parentSpanId, phase).toBe(turn?.spanId);
    }
    expect(call?.parentSpanId).toBe(generate?.spanId);
    const purpose = call?.attributes?.find((a) => a.key === "sol.model.purpose")?.value;
    expect(purpose).toEqual({ stringValue: "main" });
    const runId = turn?.attributes?.find((a) => a.key === "sol.trace_run_id")?.value;
    expect(runId).toEqual({ stringValue: expect.stringMatching(/^tr/) });
  });

  it("writes readable log lines carrying the request's trace id", async () => {
    const res = await fetch(`${serve.url}/healthz`);
    const traceId = res.headers.get("x-sol-trace-id") ?? "";
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = serve
      .output()
      .split("\n")
      .filter((line) => line.includes(`[trace ${traceId.slice(0, 8)}]`));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.join("\n")).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[trace [0-9a-f]{8}\] GET \/healthz incoming request/m,
    );
    expect(lines.join("\n")).toMatch(/\[trace [0-9a-f]{8}\] 200 \d+\.\dms request completed/);
    for (const line of lines) expect(line.startsWith("{")).toBe(false);
  });
});
