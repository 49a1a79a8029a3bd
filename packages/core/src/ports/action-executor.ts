import type { ActionReceipt } from "../contracts/action.js";

/** The part of an AbortSignal an executor may rely on (core is built without DOM or Node types). */
export interface ExecutionSignal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** Who and what one execution is for; `signal` aborts when the gate's time limit runs out. */
export interface ActionExecutionContext {
  readonly tenantId: string;
  readonly threadId: string;
  readonly actionId: string;
  /** The `request_id` of the execute call that claimed the action. */
  readonly requestId: string;
  /** Milliseconds since the epoch, from the server's clock. */
  readonly nowMs: number;
  readonly signal: ExecutionSignal;
}

/**
 * Performs one kind of approved action (create_reminder, webhook, ...). It receives exactly the payload
 * whose hash was approved. A thrown SolError's message becomes the user-visible failure reason.
 */
export interface ActionExecutor {
  readonly kind: string;
  execute(payload: Readonly<Record<string, unknown>>, ctx: ActionExecutionContext): Promise<ActionReceipt>;
  /**
   * After a crash: finds the effect an interrupted run of this action left behind (e.g. the reminder
   * row) and returns its receipt, or null when there is none. Executors without durable effects omit it.
   */
  findResult?(ctx: Omit<ActionExecutionContext, "signal">): Promise<ActionReceipt | null>;
  /**
   * The params `action_pre` policies see for this payload (e.g. the webhook's resolved `host`);
   * without it they see the payload's top-level strings, numbers and booleans.
   */
  policyParams?(payload: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>;
}
