import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** How a turn ended: answered, replayed from the store, or the error code it failed with. */
export interface TurnEnd {
  readonly outcome: "ok" | "replayed" | "error";
  readonly errorCode?: string;
  readonly seconds: number;
  /** The routing-ladder step that chose the mode (0 override, 1 deterministic, 2 selector). */
  readonly routingStep?: number;
  readonly breakpoint?: string;
  readonly regenerated?: boolean;
}

/** One model call as the instrumented provider saw it. */
export interface ModelCallEnd {
  readonly purpose: string;
  readonly provider: string;
  readonly outcome: "ok" | "error" | "abandoned";
  readonly seconds: number;
  readonly streamed: boolean;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

/** What the server records; labels never carry tenant data (ids, keys, text). */
export interface SolMetrics {
  /** True when the metrics are kept (SOL_METRICS=1). */
  readonly enabled: boolean;
  turnPhase(phase: string, seconds: number): void;
  turnStarted(): void;
  turnEnded(end: TurnEnd): void;
  modelCall(end: ModelCallEnd): void;
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  httpInFlight(delta: 1 | -1): void;
  actionRun(kind: string, outcome: string): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  readonly contentType: string;
}

const noop = () => {};

/** The metrics of a server started without SOL_METRICS: every call does nothing. */
export const NO_METRICS: SolMetrics = Object.freeze({
  enabled: false,
  turnPhase: noop,
  turnStarted: noop,
  turnEnded: noop,
  modelCall: noop,
  httpRequest: noop,
  httpInFlight: noop,
  actionRun: noop,
  render: async () => "",
  contentType: "text/plain; version=0.0.4; charset=utf-8",
});

// Latency buckets in seconds, from the in-process overhead of a turn (sub-millisecond) up to slow models.
const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

/** A registry of the server's metrics (its own, not prom-client's global one, so two servers in one process do not clash). */
export function createSolMetrics(): SolMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "sol_" });
  const on = { registers: [registry] };
  const turns = new Counter({
    name: "sol_turns_total",
    help: "Chat turns by outcome (ok, replayed, error) and error code.",
    labelNames: ["outcome", "code"] as const,
    ...on,
  });
  const turnSeconds = new Histogram({
    name: "sol_turn_duration_seconds",
    help: "Wall time of a chat turn, from claim to response.",
    labelNames: ["outcome"] as const,
    buckets: LATENCY_BUCKETS,
    ...on,
  });
  const phaseSeconds = new Histogram({
    name: "sol_turn_phase_duration_seconds",
    help: "Wall time of each turn phase (load, route, retrieval, generate, commit...).",
    labelNames: ["phase"] as const,
    buckets: LATENCY_BUCKETS,
    ...on,
  });
  const turnsInFlight = new Gauge({ name: "sol_turns_in_flight", help: "Turns running now.", ...on });
  const routing = new Counter({
    name: "sol_routing_decisions_total",
    help: "Routing-ladder decisions by the step that decided (0 override, 1 deterministic, 2 selector).",
    labelNames: ["step"] as const,
    ...on,
  });
  const breakpoints = new Counter({
    name: "sol_breakpoint_decisions_total",
    help: "Breakpoint Engine decisions (must, should, skip).",
    labelNames: ["decision"] as const,
    ...on,
  });
  const regenerations = new Counter({
    name: "sol_regenerations_total",
    help: "Turns whose reply was regenerated once by the drift protocol.",
    ...on,
  });
  const modelCalls = new Counter({
    name: "sol_model_calls_total",
    help: "Model calls by purpose (selector, main, regeneration...), provider and outcome.",
    labelNames: ["purpose", "provider", "outcome", "streamed"] as const,
    ...on,
  });
  const modelSeconds = new Histogram({
    name: "sol_model_call_duration_seconds",
    help: "Wall time of a model call (a stream: until its last chunk).",
    labelNames: ["purpose", "provider"] as const,
    buckets: LATENCY_BUCKETS,
    ...on,
  });
  const tokens = new Counter({
    name: "sol_model_tokens_total",
    help: "Tokens the providers reported, by direction (input, output).",
    labelNames: ["direction"] as const,
    ...on,
  });
  const http = new Counter({
    name: "sol_http_requests_total",
    help: "HTTP requests by method, route template and status.",
    labelNames: ["method", "route", "status"] as const,
    ...on,
  });
  const httpSeconds = new Histogram({
    name: "sol_http_request_duration_seconds",
    help: "HTTP request wall time by route template.",
    labelNames: ["method", "route"] as const,
    buckets: LATENCY_BUCKETS,
    ...on,
  });
  const httpInFlight = new Gauge({
    name: "sol_http_requests_in_flight",
    help: "HTTP requests being served.",
    ...on,
  });
  const actions = new Counter({
    name: "sol_action_runs_total",
    help: "Permission-gate executions by action kind and outcome.",
    labelNames: ["kind", "outcome"] as const,
    ...on,
  });
  return {
    enabled: true,
    turnPhase: (phase, seconds) => phaseSeconds.observe({ phase }, seconds),
    turnStarted: () => turnsInFlight.inc(),
    turnEnded(end) {
      turnsInFlight.dec();
      turns.inc({ outcome: end.outcome, code: end.errorCode ?? "" });
      turnSeconds.observe({ outcome: end.outcome }, end.seconds);
      if (end.routingStep !== undefined) routing.inc({ step: String(end.routingStep) });
      if (end.breakpoint !== undefined) breakpoints.inc({ decision: end.breakpoint });
      if (end.regenerated) regenerations.inc();
    },
    modelCall(end) {
      modelCalls.inc({
        purpose: end.purpose,
        provider: end.provider,
        outcome: end.outcome,
        streamed: String(end.streamed),
      });
      modelSeconds.observe({ purpose: end.purpose, provider: end.provider }, end.seconds);
      if (end.inputTokens) tokens.inc({ direction: "input" }, end.inputTokens);
      if (end.outputTokens) tokens.inc({ direction: "output" }, end.outputTokens);
    },
    httpRequest(method, route, status, seconds) {
      http.inc({ method, route, status: String(status) });
      httpSeconds.observe({ method, route }, seconds);
    },
    httpInFlight: (delta) => httpInFlight.inc(delta),
    actionRun: (kind, outcome) => actions.inc({ kind, outcome }),
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
