import { loadConfig, readConfigFile, type SolConfig } from "../config/index.js";
import { undefinedContextIds } from "../cra/load-atlas.js";
import { createPrettyLogStream } from "../observability/index.js";
import { createSolServer } from "../server.js";

export interface ServeFlags {
  readonly port?: string;
  readonly host?: string;
  readonly db?: string;
  readonly provider?: string;
  readonly config?: string;
}

/** `sol serve`: config from file, environment and flags; graceful shutdown on SIGINT/SIGTERM. */
export async function runServe(flags: ServeFlags): Promise<void> {
  const config = loadConfig({
    env: process.env,
    ...(flags.config ? { file: readConfigFile(flags.config) } : {}),
    overrides: { SOL_PORT: flags.port, SOL_HOST: flags.host, SOL_DB_URL: flags.db, SOL_LLM: flags.provider },
  });
  // Registered before the server exists, so every span from the first request on is exported. The
  // exporter is imported only when configured: the OpenTelemetry SDK costs megabytes in every process.
  const stopTracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
    ? (await import("../observability/otlp.js")).startOtlpTracing(
        config.OTEL_EXPORTER_OTLP_ENDPOINT,
        config.OTEL_SERVICE_NAME,
      )
    : async () => {};
  const server = await createSolServer(config, { logger: serveLogger(config) });
  if (!config.SOL_API_KEYS) {
    server.app.log.warn(
      "SOL_API_KEYS is not set: authentication is off and every caller is tenant 'default'.",
    );
  }
  const undefinedContexts = undefinedContextIds(server.checkpoints.engine.atlas);
  if (undefinedContexts.length > 0) {
    server.app.log.warn(
      `The atlas names context ids no context block defines (they inject nothing): ${undefinedContexts.join(", ")}`,
    );
  }
  if (config.SOL_LLM === "offline") {
    server.app.log.info("Using the offline provider: deterministic replies, not a language model.");
  }
  let url: string;
  try {
    url = await server.listen();
  } catch (error) {
    // Release the store (a PostgreSQL pool would otherwise keep the process alive) before failing.
    await server.close().catch(() => {});
    throw error;
  }
  process.stdout.write(
    `SolServer listening on ${url} (store ${server.store.kind}, provider ${server.provider.name})\n`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal}: finishing in-flight turns, then closing`);
    server
      .close()
      .then(() => stopTracing())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

/** pino options for `sol serve`: readable lines on a terminal in development, JSON lines otherwise. */
function serveLogger(config: SolConfig) {
  const format = config.SOL_LOG_FORMAT ?? (!config.production && process.stdout.isTTY ? "pretty" : "json");
  return format === "pretty"
    ? { level: config.SOL_LOG_LEVEL, stream: createPrettyLogStream(process.stdout) }
    : { level: config.SOL_LOG_LEVEL };
}
