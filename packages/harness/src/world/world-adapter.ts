import type { Clock, DriveWorld, Task } from "@solserver/core";

/** Where the bot stands, when the world knows. */
export interface Position {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** A snapshot of the world: what the drive tick reads, plus the world clock and position. */
export type World = DriveWorld & {
  /** The world's clock when the snapshot was taken (ms). */
  readonly worldTimeMs: number;
  readonly position?: Position;
};

export interface ExecuteOptions {
  /** Aborting gives up the task: execution resolves as failed soon after. */
  readonly signal: AbortSignal;
  /** Called when progress (0..1) changes. */
  readonly onProgress?: (progress: number) => void;
}

/** How one execution ended. Executions never reject for world reasons; they report them here. */
export type ExecutionOutcome =
  | { readonly status: "completed"; readonly detail?: string }
  | { readonly status: "failed"; readonly reason: string };

/** A world the agency acts in: a simulator or a real Minecraft bot. */
export interface WorldAdapter {
  readonly name: string;
  /** The world's clock (a simulator runs its own, possibly scaled, time). */
  readonly clock: Clock;
  /** The current state; a Minecraft bot has it only after its first `health` event. */
  snapshot(): Promise<World>;
  /** Carries out one task over world time, reporting progress. */
  execute(task: Task, options: ExecuteOptions): Promise<ExecutionOutcome>;
  /** Why this world has no plan route for the task (it could never execute it), or null. */
  noPlanRoute?(task: Task): string | null;
  close(): Promise<void>;
}

/** The `{ action, target, amount }` a task asks for (from its parameters, else its goalKey). */
export function taskGoal(task: Task): { action: string; target: string; amount: number } {
  const params = task.parameters;
  const [keyAction, keyTarget] = (task.metadata.goalKey ?? ":").split(":");
  const action = typeof params.action === "string" ? params.action : (keyAction ?? "");
  const target = typeof params.target === "string" ? params.target : (keyTarget ?? "");
  const amount = typeof params.amount === "number" && params.amount > 0 ? Math.floor(params.amount) : 1;
  return { action, target, amount };
}
