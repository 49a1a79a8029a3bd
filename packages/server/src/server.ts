import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type ActionExecutor,
  type Clock,
  createCheckpointEngine,
  type DriverBlockInput,
  type EmbeddingProvider,
  type LlmProvider,
  parseModePack,
  type RouterConfigInput,
  SolError,
  SYSTEM_DRIVER_BLOCKS,
  validateSystemBlocks,
} from "@solserver/core";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import {
  type ActionGate,
  builtinExecutors,
  createActionGate,
  createExecutorRegistry,
} from "./actions/index.js";
import {
  type AgencyService,
  type CounterLog,
  createAgencyService,
  type IntervalTimers,
  startCounterLog,
} from "./agency/index.js";
import type { SolConfig } from "./config/index.js";
import { loadProfileSources } from "./config/profiles.js";
import {
  CHECKPOINT_CONFIRMATION_KIND,
  type CheckpointService,
  type ConfirmationRequiredHook,
  checkpointTraceRunId,
  createCheckpointConfirmationExecutor,
  createCheckpointContextInjector,
  createCheckpointService,
  createCraActionPolicy,
  createGateConfirmationHook,
  createTraceGrantFinder,
  loadAtlas,
  threadSessionId,
} from "./cra/index.js";
import { buildApp } from "./http/app.js";
import { resolveKeyring } from "./integrity/index.js";
import { createSolMetrics, instrumentProvider, NO_METRICS } from "./observability/index.js";
import { createTurnService } from "./orchestrator/create-turn-service.js";
import { createTurnEngines } from "./orchestrator/turn-engines.js";
import { createOpenAiEmbeddings, createProvider, withEmbeddingCache } from "./providers/index.js";
import { createAgencyStore, type SqlSolStore } from "./store/index.js";
import { isThreadedStore, openStoreOn } from "./store/worker/open-threaded.js";
import { applyHeapGrowth } from "./util/heap-growth.js";
import { randomIds } from "./util/ids.js";

export interface SolServerOptions {
  readonly logger?: FastifyServerOptions["logger"];
  /** Use this provider instead of the one SOL_LLM names (tests, embedding). */
  readonly provider?: LlmProvider;
  readonly store?: SqlSolStore;
  readonly clock?: Clock;
  /**
   * Action executors: a list is added to the built-ins (one of a built-in kind replaces it); a function
   * receives the built-ins and returns the whole list (tests wrap them, e.g. to count runs).
   */
  readonly executors?:
    | readonly ActionExecutor[]
    | ((builtins: readonly ActionExecutor[]) => readonly ActionExecutor[]);
  /**
   * Where a checkpoint's confirmation request is stored (see ConfirmationRequiredHook); default: the
   * permission gate, as a `checkpoint_confirmation` action that POST /v1/actions/execute approves.
   */
  readonly onConfirmationRequired?: ConfirmationRequiredHook;
  /** Receives the periodic `[Agency ...]` counters line; default: stdout (tenant named unless `default`). */
  readonly agencyLog?: (line: string, tenantId: string) => void;
  /** Timers of the counters log (tests inject their own). */
  readonly agencyTimers?: IntervalTimers;
}

export interface SolServer {
  readonly app: FastifyInstance;
  readonly store: SqlSolStore;
  readonly provider: LlmProvider;
  readonly config: SolConfig;
  /** The permission gate (proposals, execute, defer, recovery). */
  readonly actions: ActionGate;
  /** CRA checkpoints over the atlas SOL_ATLAS names (or the built-in one). */
  readonly checkpoints: CheckpointService;
  /** The agency pipeline: thoughts, drive ticks, tasks, counters (api.md §3 "Agency"). */
  readonly agency: AgencyService;
  /** Listens on SOL_HOST:SOL_PORT (port 0 picks a free one) and returns the base URL. */
  listen(): Promise<string>;
  /** Stops accepting requests, finishes in-flight turns, closes the store. */
  close(): Promise<void>;
}

function readJsonFile(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (cause) {
    throw new SolError("invalid_input", `Cannot load ${what} from ${path}: ${(cause as Error).message}`, {
      cause,
    });
  }
}

/** Reads and validates the mode pack SOL_MODES names (undefined: the built-in pack). */
export function loadModes(path: string | undefined): RouterConfigInput | undefined {
  if (!path) return undefined;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    throw new SolError(
      "invalid_input",
      `Cannot load the mode pack from ${path}: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
  const parsed = parseModePack(text);
  if (!parsed.ok) {
    const list = parsed.issues.map((i) => `${(i.path ?? []).join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new SolError("invalid_input", `Invalid mode pack ${path}: ${list}`, { details: parsed.issues });
  }
  return parsed.value;
}

function loadDriverBlocks(path: string | undefined): DriverBlockInput[] | undefined {
  if (!path) return undefined;
  const raw = readJsonFile(path, "driver blocks");
  const list =
    Array.isArray(raw) || typeof raw !== "object" || raw === null
      ? raw
      : (raw as { blocks?: unknown }).blocks;
  if (!Array.isArray(list))
    throw new SolError(
      "invalid_input",
      `${path} must hold an array of Driver Blocks (or { "blocks": [...] }).`,
    );
  const checked = validateSystemBlocks(list);
  if (!checked.ok) {
    // Each issue names its field: "systemBlocks[0].version: Invalid input".
    const described = checked.issues.map((issue) => {
      const field = (issue.path ?? [])
        .slice(2)
        .map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`))
        .join("");
      return issue.message.replace("]: ", `]${field}: `);
    });
    throw new SolError("invalid_input", `Invalid driver blocks in ${path}: ${described.join("; ")}`, {
      details: checked.issues,
    });
  }
  // The file's blocks join the built-in ones: one repeating a built-in id@version is named here, by
  // its index in the file (the engine would see it at its index in the combined list).
  const keyOf = (block: DriverBlockInput) => JSON.stringify([block.id, String(block.version)]);
  const builtIn = new Set(SYSTEM_DRIVER_BLOCKS.map(keyOf));
  const repeats = checked.value.flatMap((block, i) => {
    const shown = `${block.id}@${String(block.version)}`;
    return builtIn.has(keyOf(block))
      ? [{ path: ["systemBlocks", i], message: `systemBlocks[${i}] repeats the built-in block ${shown}` }]
      : [];
  });
  if (repeats.length > 0) {
    throw new SolError(
      "invalid_input",
      `Invalid driver blocks in ${path}: ${repeats.map((r) => r.message).join("; ")}`,
      { details: repeats },
    );
  }
  return checked.value;
}

/** Where the built web client lives (packages/web/dist), unless SOL_WEB_DIR says otherwise. */
export function defaultWebDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, "../../web/dist");
}

/**
 * The web client directory to serve, absolute: SOL_WEB_DIR (relative to the working directory) must
 * be a directory; the default is served only once the web client is built.
 */
function webDirToServe(configured: string | undefined): string | undefined {
  if (configured === undefined) {
    const built = defaultWebDir();
    return existsSync(built) ? built : undefined;
  }
  const dir = resolve(configured);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new SolError("invalid_input", `SOL_WEB_DIR ${configured} is not a directory (${dir}).`, {
      details: [{ path: "SOL_WEB_DIR", message: "not a directory" }],
    });
  }
  return dir;
}

function defaultAgencyLog(line: string, tenantId: string): void {
  console.info(tenantId === "default" ? line : `${line} tenant=${tenantId}`);
}

/** True when SOL_LOG_LEVEL lets info lines through (the counter log is one). */
function logsInfo(level: SolConfig["SOL_LOG_LEVEL"]): boolean {
  return level === "info" || level === "debug" || level === "trace";
}

/** Assembles store, provider, engines, orchestrator and HTTP app from a validated configuration. */
export async function createSolServer(config: SolConfig, options: SolServerOptions = {}): Promise<SolServer> {
  // Before the stores open: the store thread's heap follows the same factor.
  applyHeapGrowth(config.SOL_HEAP_GROWING_PERCENT);
  const modes = loadModes(config.SOL_MODES);
  const extraSystemBlocks = loadDriverBlocks(config.SOL_DRIVER_BLOCKS);
  const atlas = loadAtlas(config.SOL_ATLAS);
  const webDir = webDirToServe(config.SOL_WEB_DIR);
  const profiles = loadProfileSources(config.SOL_PROFILES);
  const engines = createTurnEngines({
    ...(modes ? { modes } : {}),
    ...(extraSystemBlocks ? { extraSystemBlocks } : {}),
    ...(profiles ? { profiles } : {}),
    ...(config.SOL_PROFILE ? { profileId: config.SOL_PROFILE } : {}),
  });
  const clock = options.clock ?? { now: () => Date.now() };
  const provider =
    options.provider ??
    createProvider(
      {
        SOL_LLM: config.SOL_LLM,
        ...(config.SOL_LLM_BASE_URL ? { SOL_LLM_BASE_URL: config.SOL_LLM_BASE_URL } : {}),
        ...(config.SOL_LLM_API_KEY ? { SOL_LLM_API_KEY: config.SOL_LLM_API_KEY } : {}),
        ...(config.SOL_LLM_MODEL ? { SOL_LLM_MODEL: config.SOL_LLM_MODEL } : {}),
        ...(config.SOL_LLM_PRESET ? { SOL_LLM_PRESET: config.SOL_LLM_PRESET } : {}),
        ...(config.SOL_LLM_HEADERS ? { SOL_LLM_HEADERS: config.SOL_LLM_HEADERS } : {}),
        ...(config.SOL_SELECTOR_MODEL ? { SOL_SELECTOR_MODEL: config.SOL_SELECTOR_MODEL } : {}),
        ...(config.SOL_LLM_FALLBACKS ? { SOL_LLM_FALLBACKS: config.SOL_LLM_FALLBACKS } : {}),
      },
      {
        offline: { clock },
        openai: { timeoutMs: config.SOL_LLM_TIMEOUT_MS, maxRetries: config.SOL_LLM_MAX_RETRIES },
        sdk: { timeoutMs: config.SOL_LLM_TIMEOUT_MS, maxRetries: config.SOL_LLM_MAX_RETRIES },
      },
    );
  // Bound to the app's logger once it exists; a thread that stops before then fails the start anyway.
  let logThreadStop = (_error: SolError) => {};
  const agencyOptions = {
    isProduction: config.production,
    strictFinalize: config.PLANNING_STRICT_FINALIZE === "1",
  };
  // Before the store opens: production without SOL_ACTION_SECRET stops here.
  const keys = resolveKeyring(config, { ownStore: options.store === undefined });
  const store =
    options.store ??
    (await openStoreOn(config.SOL_DB_URL, config.SOL_DB_THREAD, {
      agency: agencyOptions,
      youngGenerationMb: config.SOL_DB_THREAD_YOUNG_MB,
      // Every store call now fails with 503 and /healthz says so; the log says why.
      onThreadStop: (error) => logThreadStop(error),
    }));
  const builtins = [
    ...builtinExecutors({
      reminders: store.reminders,
      calendar: store.calendar,
      memories: store.memories,
      driverBlocks: { store: store.driverBlocks, policy: engines.policy },
      ids: randomIds,
      webhook: {
        ...(config.SOL_WEBHOOK_URL ? { url: config.SOL_WEBHOOK_URL } : {}),
        ...(config.SOL_WEBHOOK_ALLOWLIST ? { allowlist: config.SOL_WEBHOOK_ALLOWLIST } : {}),
      },
    }),
    // Approving a checkpoint confirmation grants it in its session (the service is built below).
    createCheckpointConfirmationExecutor(
      (tenantId, sessionId, actionId) => checkpoints.grantConfirmation(tenantId, sessionId, actionId),
      createTraceGrantFinder(store.traces),
    ),
  ];
  const executors = createExecutorRegistry(
    typeof options.executors === "function"
      ? options.executors(builtins)
      : [...builtins, ...(options.executors ?? [])],
  );
  const actions = createActionGate({
    actions: store.actions,
    executors,
    clock,
    ids: randomIds,
    keyring: keys.keyring,
    executeTimeoutMs: config.SOL_ACTION_TIMEOUT_MS,
    leaseMs: config.SOL_ACTION_LEASE_MS,
    // The checkpoint service needs the gate (its confirmations are gate actions), so the gate's CRA
    // policy is bound once both exist.
    policy: {
      before: (ctx) => craPolicy.before(ctx),
      after: (ctx) => craPolicy.after(ctx),
    },
    trace: { traces: store.traces, runOf: actionTraceRun },
  });
  // Executions a previous process abandoned are settled before anything can approve them again.
  try {
    await actions.recoverExpired();
  } catch (error) {
    if (!options.store) await store.close();
    throw error;
  }
  const checkpoints = createCheckpointService({
    engine: createCheckpointEngine({ atlas, clock, ids: randomIds }),
    sessions: store.checkpointSessions,
    clock,
    ids: randomIds,
    onConfirmationRequired: options.onConfirmationRequired ?? createGateConfirmationHook(actions),
  });
  const craPolicy = createCraActionPolicy(checkpoints);
  const metrics = config.SOL_METRICS === "1" ? createSolMetrics() : NO_METRICS;
  // Every model call (turns and the agency's thoughts) gets its span and metrics; `provider` stays the
  // caller's own object.
  const observedProvider = instrumentProvider(provider, metrics);
  const turns = createTurnService({
    store,
    provider: observedProvider,
    metrics,
    engines,
    clock,
    ids: randomIds,
    windowSize: config.SOL_WINDOW_MESSAGES,
    turnLeaseMs: config.SOL_TURN_LEASE_MS,
    contextTokens: config.SOL_CONTEXT_TOKENS,
    contextPressureShare: config.SOL_CONTEXT_PRESSURE_SHARE,
    retrieval: { topN: config.SOL_RETRIEVAL_TOP_N, maxTokens: config.SOL_RETRIEVAL_MAX_TOKENS },
    ...embeddingsOption(config),
    actionRecorder: actions.recorder,
    contextInjector: createCheckpointContextInjector(checkpoints),
    checkpoints: store.checkpoints,
    memories: store.memories,
    pinnedContexts: store.pinnedContexts,
    driverBlocks: store.driverBlocks,
  });
  const agency = createAgencyService({
    store: isThreadedStore(store) ? store.agency : createAgencyStore(store, agencyOptions),
    clock,
    ids: randomIds,
    production: config.production,
    dedupWindowMs: config.SOL_AGENCY_DEDUP_WINDOW_MS,
    signatureWindowMs: config.SOL_AGENCY_SIGNATURE_WINDOW_MS,
    provider: observedProvider,
    traces: store.traces,
  });
  // Auth off means one tenant: log its counters from the start, zeros included (a stored session
  // goes on: its start is when its counters were created or last reset).
  if (!config.SOL_API_KEYS?.size) {
    try {
      await agency.counters("default");
    } catch (error) {
      if (!options.store) await store.close().catch(() => {});
      throw error;
    }
  }
  const counterLog: CounterLog = startCounterLog(agency, {
    log: options.agencyLog ?? (logsInfo(config.SOL_LOG_LEVEL) ? defaultAgencyLog : () => {}),
    ...(options.agencyTimers === undefined ? {} : { timers: options.agencyTimers }),
  });
  let app: FastifyInstance;
  try {
    app = await buildApp(
      {
        config,
        store,
        provider,
        turns,
        actions,
        checkpoints,
        agency,
        reminders: store.reminders,
        calendar: store.calendar,
        threads: store.threads,
        memories: store.memories,
        threadCheckpoints: store.checkpoints,
        pinnedContexts: store.pinnedContexts,
        driverBlocks: store.driverBlocks,
        policy: engines.policy,
        metrics,
      },
      { logger: options.logger ?? false, ...(webDir ? { webDir } : {}) },
    );
  } catch (error) {
    counterLog.stop();
    // An open PostgreSQL pool would keep the process alive after sol serve reported the error.
    if (!options.store) await store.close().catch(() => {});
    throw error;
  }
  const log = app.log;
  logThreadStop = (error) => log.fatal({ err: error }, "The store thread stopped");
  if (keys.warning !== undefined) log.warn(keys.warning);
  let closed = false;
  return {
    app,
    store,
    provider,
    config,
    actions,
    checkpoints,
    agency,
    async listen() {
      return app.listen({ port: config.SOL_PORT, host: config.SOL_HOST });
    },
    async close() {
      if (closed) return;
      closed = true;
      counterLog.stop();
      await app.close();
      await turns.drain();
      await actions.drain();
      await store.close();
    },
  };
}

/** The optional embedding ranker of the retrieval phase: none unless SOL_EMBEDDINGS_MODEL is set. */
function embeddingsOption(config: SolConfig): { embeddings?: EmbeddingProvider } {
  const baseUrl = config.SOL_EMBEDDINGS_BASE_URL ?? config.SOL_LLM_BASE_URL;
  if (!config.SOL_EMBEDDINGS_MODEL || !baseUrl) return {};
  const apiKey = config.SOL_EMBEDDINGS_API_KEY ?? config.SOL_LLM_API_KEY;
  const embeddings = createOpenAiEmbeddings({
    baseUrl,
    model: config.SOL_EMBEDDINGS_MODEL,
    ...(apiKey ? { apiKey } : {}),
  });
  return { embeddings: withEmbeddingCache(embeddings) };
}

/** The trace run of an action's decisions: its thread's checkpoint session (a confirmation's is its own). */
function actionTraceRun(action: { readonly kind: string; readonly threadId: string }): string {
  const session =
    action.kind === CHECKPOINT_CONFIRMATION_KIND ? action.threadId : threadSessionId(action.threadId);
  return checkpointTraceRunId(session);
}
