import { context, propagation, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, describe, expect, it } from "vitest";
import { inSpan } from "../../src/observability/tracing.js";

// Without a tracer provider a phase runs with a span that records nothing (and no span or context is
// made for it); a provider registered later, as `sol serve` registers its exporter, is seen from then on.

afterAll(() => {
  trace.disable();
  context.disable();
  propagation.disable();
});

describe("inSpan", () => {
  it("runs the function with a span that records nothing while no provider is registered", async () => {
    const seen: boolean[] = [];
    await expect(
      inSpan("sol.test", { a: 1 }, (span) => {
        seen.push(span.isRecording());
        span.setAttribute("b", 2);
        return 7;
      }),
    ).resolves.toBe(7);
    expect(seen).toEqual([false]);
    const failure = new Error("no");
    await expect(inSpan("sol.test", {}, () => Promise.reject(failure))).rejects.toBe(failure);
  });

  it("records spans, nested and failed ones included, once a provider is registered", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();
    await inSpan("sol.outer", { "sol.k": "v" }, async (outer) => {
      expect(outer.isRecording()).toBe(true);
      await inSpan("sol.inner", {}, () => undefined);
    });
    await expect(
      inSpan("sol.failing", {}, () => {
        throw Object.assign(new Error("bad"), { code: "invalid_input" });
      }),
    ).rejects.toThrow("bad");
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(["sol.inner", "sol.outer", "sol.failing"]);
    const [inner, outer, failing] = spans;
    expect(inner?.parentSpanContext?.spanId).toBe(outer?.spanContext().spanId);
    expect(outer?.attributes).toEqual({ "sol.k": "v" });
    expect(failing?.attributes["sol.error.code"]).toBe("invalid_input");
    await provider.shutdown();
  });
});
