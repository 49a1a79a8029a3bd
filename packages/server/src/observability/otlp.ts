import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { SERVER_VERSION } from "../version.js";

/** Stops the exporter after flushing the spans still buffered. */
export type StopTracing = () => Promise<void>;

/**
 * Registers a process-wide tracer provider that exports every span over OTLP/HTTP to
 * `<endpoint>/v1/traces` (the collector's standard path). Call once per process, before the server
 * starts; `sol serve` does when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
export function startOtlpTracing(endpoint: string, serviceName = "solserver"): StopTracing {
  const url = `${endpoint.replace(/\/+$/, "")}/v1/traces`;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName, "service.version": SERVER_VERSION }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  provider.register();
  return () => provider.shutdown();
}
