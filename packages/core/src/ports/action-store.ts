import type { ActionError, ActionReceipt, ActionStatus } from "../contracts/action.js";
import type { TenantId } from "./tenant.js";

/** Where a proposal came from: a model reply's `meta.action_needed`, or a checkpoint confirmation. */
export type ActionSource = "envelope" | "checkpoint";

/** A proposal as it is first stored (status `proposed`, version 1). */
export interface NewAction {
  readonly tenantId: TenantId;
  readonly actionId: string;
  readonly threadId: string;
  readonly messageId: string | null;
  readonly requestId: string;
  readonly source: ActionSource;
  readonly kind: string;
  readonly label: string;
  readonly bullets: readonly string[];
  readonly target: string | null;
  readonly dataUsed: string | null;
  readonly why: string | null;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly payloadHash: string;
  /** Id of the server key whose HMAC binds the approval (see `actionBindingInput`). */
  readonly bindingKeyId?: string;
  /** HMAC-SHA256 (hex) of `actionBindingInput` under that key. */
  readonly bindingMac?: string;
  readonly now: string;
}

/** A stored action. `payload` is null when the stored column is not a JSON object (a damaged row). */
export interface StoredAction extends Omit<NewAction, "now" | "payload" | "bindingKeyId" | "bindingMac"> {
  readonly payload: Readonly<Record<string, unknown>> | null;
  /** Null on a row stored before approvals were keyed (schema v19): such a row never runs. */
  readonly bindingKeyId: string | null;
  readonly bindingMac: string | null;
  readonly status: ActionStatus;
  readonly receipt: ActionReceipt | null;
  readonly error: ActionError | null;
  readonly executeRequestId: string | null;
  readonly leaseExpiresAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly version: number;
}

/** What a compare-and-swap expects the row to hold still. */
export interface StoredActionExpectation {
  readonly status: ActionStatus;
  readonly version: number;
  readonly payloadHash?: string;
  readonly executeRequestId?: string;
}

/** A status change; unnamed fields keep their stored values. */
export interface ActionPatch {
  readonly status: ActionStatus;
  readonly receipt?: ActionReceipt | null;
  readonly error?: ActionError | null;
  readonly executeRequestId?: string | null;
  readonly leaseExpiresAt?: string | null;
  readonly now: string;
}

/** How an execution ended. */
export type ExecutionOutcome =
  | { readonly status: "succeeded"; readonly receipt: ActionReceipt }
  | { readonly status: "failed"; readonly error: ActionError };

/** The answer recorded for one execute request_id. */
export type ActionExecutionRecord = ExecutionOutcome & {
  readonly tenantId: TenantId;
  readonly actionId: string;
  readonly requestId: string;
  readonly createdAt: string;
};

/** Repository of the permission gate's actions and execution answers. */
export interface ActionStore {
  insert(action: NewAction): Promise<StoredAction>;
  get(tenantId: TenantId, actionId: string): Promise<StoredAction | null>;
  /** Actions of a thread with this kind and payload hash, oldest first (the dedup candidates). */
  listIdentical(
    tenantId: TenantId,
    threadId: string,
    kind: string,
    payloadHash: string,
  ): Promise<StoredAction[]>;
  /**
   * Compare-and-swap: applies `patch` (and bumps the version) only while the row still has `expected`
   * status, version and payload hash. Returns the new row, or null when another writer got there first.
   */
  compareAndSet(
    tenantId: TenantId,
    actionId: string,
    expected: StoredActionExpectation,
    patch: ActionPatch,
  ): Promise<StoredAction | null>;
  /**
   * Ends an execution in one transaction: moves the action from `executing` (at `version`, claimed by
   * `requestId`) to the outcome and records the answer for `requestId`. Null when the claim is gone.
   */
  finish(input: {
    readonly tenantId: TenantId;
    readonly actionId: string;
    readonly version: number;
    readonly requestId: string;
    readonly outcome: ExecutionOutcome;
    readonly now: string;
  }): Promise<StoredAction | null>;
  getExecution(
    tenantId: TenantId,
    actionId: string,
    requestId: string,
  ): Promise<ActionExecutionRecord | null>;
  /** Executing actions of every tenant whose lease ended before `now` (or that have none). */
  listExpiredExecuting(now: string, limit: number): Promise<StoredAction[]>;
}
