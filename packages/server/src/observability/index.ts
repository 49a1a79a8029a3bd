export { instrumentProvider } from "./instrumented-provider.js";
export { createSolMetrics, type ModelCallEnd, NO_METRICS, type SolMetrics, type TurnEnd } from "./metrics.js";
export { createPrettyLogStream, formatLogLine, type LineSink } from "./pretty-log.js";
export { inSpan, markFailed } from "./tracing.js";
