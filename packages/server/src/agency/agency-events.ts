import { EventEmitter } from "node:events";
import type { Task, Thought } from "@solserver/core";

/** How a task changed. */
export type TaskChange = "created" | "claimed" | "progress" | "completed" | "failed";

/** A thought emitted to the stream (the recording fix decides which ones are). */
export interface ThoughtBroadcast {
  readonly tenantId: string;
  /** Broadcast copies of low-novelty thoughts carry `metadata.fallback: true`. */
  readonly thought: Thought;
}

export interface TaskEvent {
  readonly tenantId: string;
  readonly change: TaskChange;
  readonly task: Task;
  /** The executor's reason, for `failed`. */
  readonly reason?: string;
}

export interface DriveTickEvent {
  readonly tenantId: string;
  readonly fired: boolean;
  readonly reason?: string;
  readonly nowMs: number;
  readonly goalKey?: string;
  readonly taskId?: string;
}

/** Events of the agency service, emitted in order after the change is stored. */
export interface AgencyEventMap {
  thought: [ThoughtBroadcast];
  task: [TaskEvent];
  driveTick: [DriveTickEvent];
}

/** The in-process stream of broadcasts, task changes and drive ticks. */
export type AgencyEvents = EventEmitter<AgencyEventMap>;

/** A fresh event stream; listeners that throw do not break the service (errors are swallowed). */
export function createAgencyEvents(): AgencyEvents {
  const events = new EventEmitter<AgencyEventMap>({ captureRejections: false });
  events.setMaxListeners(100);
  return events;
}
