import { appendFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type AgencyCounters, canonicalGoalKey, SolError, selectDrive, type Task } from "@solserver/core";
import { createSolServer, DEFAULT_SIMILARITY_WINDOW, loadConfig } from "@solserver/server";
import { createExecutor, createHttpTaskApi, ignoreFirstTaskWhere } from "../world/index.js";
import type { World } from "../world/world-adapter.js";
import { scriptedModelOutput } from "./model-feed.js";
import { type CriterionResult, evaluateSoak, soakPassed } from "./soak-criteria.js";
import { observeAgency, type TickContext, worldClockLabel } from "./soak-observer.js";
import { SoakOptions, type SoakOptionsInput } from "./soak-options.js";
import { classifyStalls, formatStalls, type StallReport } from "./soak-stalls.js";
import { openSoakWorld } from "./soak-world.js";
import { SPEC_DRIVE_TICK_INTERVAL_MS } from "./spec-rules.js";

export interface SoakReport {
  readonly options: SoakOptions;
  readonly results: readonly CriterionResult[];
  /** The §7.3 classification of what did not reach a terminal state. */
  readonly stalls: StallReport;
  readonly passed: boolean;
  readonly logPath: string;
  readonly counters: AgencyCounters;
  readonly tasks: readonly Task[];
  readonly worldMinutes: number;
  readonly wallSeconds: number;
}

export interface RunSoakDeps {
  /** Console output (progress and report); default console.log. */
  readonly out?: (line: string) => void;
  /** Ends the run early (the criteria are still judged). */
  readonly signal?: AbortSignal;
}

const TENANT = "default";

function defaultTickEvery(options: SoakOptions): number {
  if (options.tickEveryMs !== undefined) return options.tickEveryMs;
  if (options.world === "minecraft") return 5000;
  return Math.round(Math.min(5000, Math.max(100, 60_000 / options.timeScale)));
}

function summarizeInventory(inventory: Readonly<Record<string, number>>): string {
  const entries = Object.entries(inventory).map(([k, v]) => `${k}:${v}`);
  return entries.length === 0 ? "empty" : entries.join(",");
}

/**
 * A soak run: an in-process server whose clock is the world clock, a world (simulator or
 * Minecraft), drive ticks every `tickEveryMs` of wall time, scripted model thoughts through
 * POST /v1/thoughts, and an executor over the HTTP task API that deliberately leaves the first
 * drive-tick task pending (to exercise the stuck-timeout). Writes `soak-<timestamp>.log` and
 * judges the contract's eight criteria at the end.
 */
export async function runSoak(input: SoakOptionsInput, deps: RunSoakDeps = {}): Promise<SoakReport> {
  const parsed = SoakOptions.safeParse(input);
  if (!parsed.success) throw new SolError("invalid_input", `Invalid soak options: ${parsed.error.message}`);
  const options = parsed.data;
  const out = deps.out ?? ((line: string) => console.log(line));
  const logDir = resolve(options.logDir);
  mkdirSync(logDir, { recursive: true });
  const logPath = join(
    logDir,
    `soak-${new Date()
      .toISOString()
      .replaceAll(":", "-")
      .replace(/\.\d+Z$/, "Z")}.log`,
  );
  const wallStart = performance.now();
  const wallLabel = () => {
    const s = Math.floor((performance.now() - wallStart) / 1000);
    return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  };
  const log = (line: string) => appendFileSync(logPath, `${line}\n`);
  const say = (line: string) => {
    log(line);
    if (!options.quiet) out(line);
  };
  say(`soak ${JSON.stringify(options)} node=${process.version}`);

  const opened = await openSoakWorld(options, say);
  const { world } = opened;
  say(`world: ${opened.description}`);
  const server = await createSolServer(
    loadConfig({
      env: {
        SOL_PORT: "0",
        SOL_HOST: "127.0.0.1",
        SOL_DB_URL: options.dbUrl,
        SOL_RATE_LIMIT_PER_MIN: "0",
        NODE_ENV: "development",
      },
    }),
    { clock: world.clock, agencyLog: (line) => say(`[wall ${wallLabel()}] ${line}`) },
  );
  const agency = server.agency;
  const baseUrl = await server.listen();
  const worldStartMs = world.clock.now();
  let tickContext: TickContext | undefined;
  const observer = observeAgency(agency.events, {
    clock: world.clock,
    tenantId: TENANT,
    log,
    tickContext: () => tickContext,
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(new URL(path, baseUrl), {
      method,
      ...(body === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200)
      throw new SolError("internal", `${method} ${path} -> ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  // Every task, page after page (GET /v1/tasks answers a bounded page).
  const allTasks = async (): Promise<Task[]> => {
    const tasks: Task[] = [];
    let after: string | undefined;
    do {
      const page = await call(
        "GET",
        `/v1/tasks${after === undefined ? "" : `?after=${encodeURIComponent(after)}`}`,
      );
      tasks.push(...(page.tasks as Task[]));
      after = page.nextAfter as string | undefined;
    } while (after !== undefined);
    return tasks;
  };

  /** One model thought: a scripted text relayed, or the server's generator asked about `snapshot`. */
  const feedThought = async (snapshot: World, index: number) => {
    if (options.thoughts === "generator") {
      const thinking = await call("POST", "/v1/agency/think", { world: snapshot });
      const thought = thinking.thought as { id: string; novelty: string; convertEligible?: boolean };
      const decision = (thinking.decision as { decision: string }).decision;
      const how = thinking.called === true ? "called" : `not called (${String(thinking.reason)})`;
      return {
        thoughtId: thought.id,
        eligible: thought.convertEligible === true,
        line: `think ${how}: thought ${thought.id} novelty=${thought.novelty} -> ${decision}`,
      };
    }
    const scripted = scriptedModelOutput(index);
    const fed = await call("POST", "/v1/thoughts", { ...scripted, source: "llm" });
    const thought = fed.thought as { id: string; novelty: string };
    const decision = (fed.decision as { decision: string }).decision;
    return {
      thoughtId: thought.id,
      eligible: scripted.convertEligible === true,
      line: `thought ${thought.id} novelty=${thought.novelty} -> ${decision}`,
    };
  };

  const stall = ignoreFirstTaskWhere((t) => t.metadata.extractedGoalSource === "drive-tick");
  // What the executor's polls listed: a pending task never listed points at the executor (§7.3).
  const seenByExecutor = new Set<string>();
  const taskApi = createHttpTaskApi(baseUrl);
  const executor = createExecutor({
    api: {
      ...taskApi,
      async list(statuses) {
        const listed = await taskApi.list(statuses);
        for (const task of listed) seenByExecutor.add(task.id);
        return listed;
      },
    },
    world,
    name: `${world.name}-executor`,
    pollMs: options.world === "minecraft" ? 500 : Math.max(20, Math.min(500, 30_000 / options.timeScale)),
    taskTimeoutMs: options.world === "minecraft" ? 120_000 : Math.max(10_000, 600_000 / options.timeScale),
    ignore: stall.ignore,
    log: (line) => log(`[world ${worldClockLabel(world.clock.now(), worldStartMs)}] ${line}`),
  });
  executor.start();
  opened.start();

  const tickEvery = defaultTickEvery(options);
  const printEvery = Math.max(1, Math.round(5000 / tickEvery));
  const counterSamples: AgencyCounters[] = [];
  const probes = { sent: 0, fired: 0, effective: { creative: 0, spectator: 0 } };
  let thoughtsFed = 0;
  const sentEligible = new Set<string>();
  let lastTick = "";
  // The soak observes for `minutes` from here, once the server, world and executor are up: a slow
  // start must not eat the run and leave nothing to judge (zero rounds, criterion 6 failing).
  const deadline = performance.now() + options.minutes * 60_000;
  let evidence: Parameters<typeof evaluateSoak>[0] | undefined;
  let stalls: StallReport = { stalls: [], inFlight: [] };
  let runError: string | undefined;
  try {
    for (let i = 0; (i === 0 || performance.now() < deadline) && deps.signal?.aborted !== true; i++) {
      try {
        const snapshot: World = await world.snapshot();
        // Criterion 8 in survival: probe creative and spectator only when the timer is open, just
        // before the real tick on the same snapshot. A probe counts when that tick then fires, so the
        // mode gate, not the timer or idempotency, is what refused the probe.
        const lastFire = observer.ticks.findLast((t) => t.fired)?.worldMs;
        const timerOpen =
          lastFire === undefined || world.clock.now() - lastFire >= SPEC_DRIVE_TICK_INTERVAL_MS;
        const refusedProbes: ("creative" | "spectator")[] = [];
        if (options.mode === "survival" && timerOpen) {
          for (const gameMode of ["creative", "spectator"] as const) {
            const probe = await call("POST", "/v1/agency/drive-tick", { world: { ...snapshot, gameMode } });
            probes.sent += 1;
            if (probe.fired === true) probes.fired += 1;
            else refusedProbes.push(gameMode);
          }
        }
        const wanted = selectDrive(snapshot).goal;
        tickContext = { goalKey: canonicalGoalKey(wanted.action, wanted.target) };
        const tick = await call("POST", "/v1/agency/drive-tick", { world: snapshot }).finally(() => {
          tickContext = undefined;
        });
        lastTick =
          tick.fired === true
            ? `fired ${(tick.task as Task | undefined)?.id ?? tick.reason}`
            : String(tick.reason);
        if (tick.fired === true) for (const gameMode of refusedProbes) probes.effective[gameMode] += 1;
        if (options.thoughtEvery > 0 && i % options.thoughtEvery === 0) {
          const fed = await feedThought(snapshot, thoughtsFed++);
          if (fed.eligible) sentEligible.add(fed.thoughtId);
          log(`[world ${worldClockLabel(world.clock.now(), worldStartMs)}] ${fed.line}`);
        }
        const counters = (await call("GET", "/v1/agency/counters")) as unknown as AgencyCounters;
        counterSamples.push(counters);
        const tasks = await allTasks();
        const count = (s: string) => tasks.filter((t) => t.status === s).length;
        const line =
          `[soak ${wallLabel()} | world ${worldClockLabel(world.clock.now(), worldStartMs)} day ${snapshot.timeOfDay ?? "?"}]` +
          ` drives=${counters.driveTicks} (${lastTick}) tasks p=${count("pending")} a=${count("active")}` +
          ` c=${count("completed")} f=${count("failed")} | hp=${snapshot.health} food=${snapshot.food}` +
          ` hostiles=${snapshot.hostiles} ${snapshot.gameMode} inv=${summarizeInventory(snapshot.inventory)}` +
          ` | llm=${counters.llmCalls} goals=${counters.goalTags} intents=${counters.intentExtractions}`;
        if (i % printEvery === 0) say(line);
        else log(line);
        await sleep(Math.max(0, Math.min(tickEvery, deadline - performance.now())));
      } catch (error) {
        // A failing API call ends the run, but it is still judged (and fails): the log says why.
        runError = error instanceof Error ? error.message : String(error);
        say(`[soak ${wallLabel()}] run stopped: ${runError}`);
        break;
      }
    }
    // Evidence is taken before teardown, so tasks aborted by shutdown do not count as closures.
    const tasks = await allTasks();
    const counters = (await call("GET", "/v1/agency/counters")) as unknown as AgencyCounters;
    for (const { line } of await agency.counterLines()) say(`[wall ${wallLabel()}] ${line}`);
    evidence = {
      mode: options.mode,
      thoughtSource: options.thoughts,
      model: `${server.provider.name}/${server.provider.model}`,
      counters,
      counterSamples,
      tasks,
      thoughts: await agency.listThoughts(TENANT, 1_000_000),
      fires: observer.fires,
      ticks: observer.ticks,
      claims: observer.claims,
      violations: observer.violations,
      stalledTaskId: stall.stalled()?.id ?? null,
      probes,
      worldStartMs,
      worldEndMs: world.clock.now(),
      duplicateSuppressions: observer.skips.get("duplicate_goal") ?? 0,
      similarityWindow: DEFAULT_SIMILARITY_WINDOW,
      ...(runError === undefined ? {} : { runError }),
    };
    const noPlanRoute = new Map<string, string>();
    for (const task of tasks) {
      if (task.status === "completed" || task.status === "failed") continue;
      const why = world.noPlanRoute?.(task) ?? null;
      if (why !== null) noPlanRoute.set(task.id, why);
    }
    stalls = classifyStalls({
      tasks,
      thoughts: evidence.thoughts,
      seenByExecutor,
      noPlanRoute,
      sentEligible,
      stalledTaskId: evidence.stalledTaskId,
      worldEndMs: evidence.worldEndMs,
    });
  } finally {
    observer.detach();
    await executor.stop();
    await server.close();
    await opened.close();
  }

  const results = evaluateSoak(evidence);
  const passed = soakPassed(results);
  const worldMinutes = (evidence.worldEndMs - worldStartMs) / 60_000;
  const wallSeconds = (performance.now() - wallStart) / 1000;
  const report = [
    `--- agency soak: ${options.world} ${options.mode}, ${wallSeconds.toFixed(0)} s wall, ${worldMinutes.toFixed(1)} min world ---`,
    ...results.map((r) => `${r.status.padEnd(4)} ${r.id === "extra" ? "+" : r.id}. ${r.title}: ${r.detail}`),
    "stall taxonomy (contract §7.3): what did not reach a terminal state, by root cause",
    ...formatStalls(stalls).map((line) => `  ${line}`),
    `skips: ${JSON.stringify(Object.fromEntries(observer.skips))} broadcasts=${observer.broadcasts.count} (fallback ${observer.broadcasts.fallback}) thoughts=${evidence.thoughts.length}`,
    `counters: ${JSON.stringify(evidence.counters)}`,
    `RESULT: ${passed ? "PASS" : "FAIL"} (log: ${logPath})`,
  ];
  for (const line of report) {
    log(line);
    out(line);
  }
  return {
    options,
    results,
    stalls,
    passed,
    logPath,
    counters: evidence.counters,
    tasks: evidence.tasks,
    worldMinutes,
    wallSeconds,
  };
}
