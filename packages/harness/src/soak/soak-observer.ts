import type { Clock, Task } from "@solserver/core";
import type { AgencyEvents, DriveTickEvent, TaskEvent, ThoughtBroadcast } from "@solserver/server";
import { findSpecHolder, soakGoalOf } from "./spec-rules.js";

export interface ObservedFire {
  readonly worldMs: number;
  readonly goalKey?: string;
  readonly taskId?: string;
  readonly reason?: string;
}

/** One drive-tick evaluation, fired or not, at the server's clock. */
export interface ObservedTick {
  readonly worldMs: number;
  readonly fired: boolean;
  readonly reason?: string;
  /** The goal the tick fired for, or (skipped) the goal the soak's world called for, when known. */
  readonly goalKey?: string;
  /** The task a fired tick created. */
  readonly taskId?: string;
  /** A task (other than the one this tick created) that held that goal then, by the contract's rule. */
  readonly heldBy?: string;
}

/** What the soak knows about the drive tick it is sending (read while the server handles it). */
export interface TickContext {
  /** The goal the world snapshot calls for (`action:target`). */
  readonly goalKey?: string;
}

export interface ObserveOptions {
  readonly clock: Clock;
  readonly tenantId: string;
  readonly log: (line: string) => void;
  /** The context of the drive tick in flight, if the caller knows one. */
  readonly tickContext?: () => TickContext | undefined;
}

/** What the soak saw on the agency event stream, in order. */
export interface SoakObserver {
  /** Latest known state of every task, by id. */
  readonly tasks: Map<string, Task>;
  readonly fires: ObservedFire[];
  /** Every drive-tick evaluation (fired or skipped), in order. */
  readonly ticks: ObservedTick[];
  readonly claims: { readonly taskId: string; readonly worldMs: number; readonly driveTick: boolean }[];
  /** Drive ticks that did not fire, by reason. */
  readonly skips: Map<string, number>;
  /** Task creations that happened while another task held the same goal (criterion 4). */
  readonly violations: string[];
  readonly failures: Map<string, string>;
  readonly broadcasts: { count: number; fallback: number };
  detach(): void;
}

/** Formats world time since `startMs` as HH:MM:SS. */
export function worldClockLabel(nowMs: number, startMs: number): string {
  const s = Math.max(0, Math.floor((nowMs - startMs) / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * Subscribes to one tenant's agency events and keeps what the criteria need. At every task
 * creation it checks the contract's idempotency rule (`holdsGoalPerSpec`, by goal even when the
 * goalKey is missing) against the tasks it knows at that moment.
 */
export function observeAgency(events: AgencyEvents, options: ObserveOptions): SoakObserver {
  const startMs = options.clock.now();
  const stamp = () => `[world ${worldClockLabel(options.clock.now(), startMs)}]`;
  const observer: SoakObserver = {
    tasks: new Map(),
    fires: [],
    ticks: [],
    claims: [],
    skips: new Map(),
    violations: [],
    failures: new Map(),
    broadcasts: { count: 0, fallback: 0 },
    detach: () => {
      events.off("task", onTask);
      events.off("driveTick", onTick);
      events.off("thought", onThought);
    },
  };

  function onTask(event: TaskEvent): void {
    if (event.tenantId !== options.tenantId) return;
    const { task } = event;
    const goalKey = task.metadata.goalKey ?? "-";
    const goal = soakGoalOf(task);
    if (event.change === "created" && goal !== undefined) {
      const holder = findSpecHolder(observer.tasks.values(), goal, task.metadata.createdAt, task.id);
      if (holder !== undefined)
        observer.violations.push(`${task.id} created while ${holder.id} held ${goal}`);
    }
    observer.tasks.set(task.id, task);
    if (event.change === "claimed") {
      observer.claims.push({
        taskId: task.id,
        worldMs: options.clock.now(),
        driveTick: task.metadata.extractedGoalSource === "drive-tick",
      });
    }
    if (event.change === "failed") observer.failures.set(task.id, event.reason ?? "");
    if (event.change === "progress") return;
    const source = task.metadata.extractedGoalSource ?? "?";
    const why = event.reason ? `: ${event.reason}` : "";
    options.log(`${stamp()} task ${event.change} ${task.id} ${goalKey} (${source})${why}`);
  }

  function onTick(event: DriveTickEvent): void {
    if (event.tenantId !== options.tenantId) return;
    const goalKey = event.goalKey ?? options.tickContext?.()?.goalKey;
    const holder =
      goalKey === undefined
        ? undefined
        : findSpecHolder(observer.tasks.values(), goalKey, event.nowMs, event.taskId);
    observer.ticks.push({
      worldMs: event.nowMs,
      fired: event.fired,
      ...(event.reason === undefined ? {} : { reason: event.reason }),
      ...(goalKey === undefined ? {} : { goalKey }),
      ...(event.taskId === undefined ? {} : { taskId: event.taskId }),
      ...(holder === undefined ? {} : { heldBy: holder.id }),
    });
    if (!event.fired) {
      const reason = event.reason ?? "unknown";
      observer.skips.set(reason, (observer.skips.get(reason) ?? 0) + 1);
      return;
    }
    observer.fires.push({
      worldMs: event.nowMs,
      ...(event.goalKey === undefined ? {} : { goalKey: event.goalKey }),
      ...(event.taskId === undefined ? {} : { taskId: event.taskId }),
      ...(event.reason === undefined ? {} : { reason: event.reason }),
    });
    options.log(
      `${stamp()} drive tick fired ${event.goalKey ?? ""} -> ${event.taskId ?? event.reason ?? ""}`,
    );
  }

  function onThought(event: ThoughtBroadcast): void {
    if (event.tenantId !== options.tenantId) return;
    observer.broadcasts.count += 1;
    if (event.thought.metadata.fallback === true) observer.broadcasts.fallback += 1;
  }

  events.on("task", onTask);
  events.on("driveTick", onTick);
  events.on("thought", onThought);
  return observer;
}
