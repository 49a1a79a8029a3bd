import {
  type ActionNeeded,
  type ActionView,
  type Clock,
  type DeferActionResult,
  type ExecuteActionInput,
  type ExecuteActionResult,
  type IdGenerator,
  isSolError,
  SolError,
  transitionAction,
  userAsksForAction,
} from "@solserver/core";
import type { Keyring } from "../integrity/index.js";
import type { ActionRecorder } from "../orchestrator/turn-service-options.js";
import type { ActionStore, ExecutionOutcome, StoredAction } from "../store/index.js";
import { type ActionPolicy, type ActionPolicyContext, policyParamsOf } from "./action-policy.js";
import { type ActionTraceOptions, createActionTrace } from "./action-trace.js";
import { verifyBinding } from "./binding.js";
import type { ExecutorRegistry } from "./executor-registry.js";
import { clipLine } from "./executors/payload.js";
import { type ProposeActionInput, type ProposeActionOutcome, proposeAction } from "./propose.js";
import { recoverAction } from "./recovery.js";
import { runExecutor } from "./run-executor.js";
import { executionToResult, toActionView, toExecuteResult } from "./views.js";

/** Claims tried per execute when another writer changes the action but leaves it executable. */
const MAX_CLAIM_ATTEMPTS = 3;

/** Options of {@link createActionGate}. */
export interface ActionGateOptions {
  readonly actions: ActionStore;
  readonly executors: ExecutorRegistry;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The server keys that sign each proposal's binding and verify it before a run. */
  readonly keyring: Keyring;
  /** How long an executor may run before it is aborted and the run fails. */
  readonly executeTimeoutMs: number;
  /** How long a claim holds; an `executing` action older than this is recovered. Must exceed the timeout. */
  readonly leaseMs: number;
  /** How often a duplicate execute request looks for its twin's answer. */
  readonly pollMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** CRA around each run (`action_pre` may deny it, `action_post` records it); none runs unchecked. */
  readonly policy?: ActionPolicy;
  /** Where approvals, "Not now", executions and receipts are traced; none records nothing. */
  readonly trace?: Omit<ActionTraceOptions, "now">;
}

/** The permission gate: proposals, the chip's decisions, at-most-once execution, crash recovery. */
export interface ActionGate {
  /** Stores one proposal (see {@link proposeAction}). */
  propose(input: ProposeActionInput): Promise<ProposeActionOutcome>;
  /** The turn orchestrator's hook: stores a reply's `meta.action_needed` and returns the chips to show. */
  readonly recorder: ActionRecorder;
  get(tenantId: string, actionId: string): Promise<ActionView>;
  /** Runs an approved action at most once; the same request_id always gets the same answer. */
  execute(tenantId: string, input: ExecuteActionInput): Promise<ExecuteActionResult>;
  defer(tenantId: string, actionId: string): Promise<DeferActionResult>;
  /** Recovers every `executing` action whose lease ran out (process start); returns how many. */
  recoverExpired(): Promise<number>;
  /** Resolves once every execution in flight has finished (graceful shutdown). */
  drain(): Promise<void>;
}

const RECOVERY_BATCH = 100;

/** Builds the gate; options are validated once and frozen. */
export function createActionGate(options: ActionGateOptions): ActionGate {
  const opts = Object.freeze({
    pollMs: 25,
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    ...options,
  });
  if (!(opts.executeTimeoutMs > 0) || !(opts.leaseMs > opts.executeTimeoutMs)) {
    throw new SolError("invalid_input", "The action lease must be longer than the execution time limit.", {
      details: { executeTimeoutMs: opts.executeTimeoutMs, leaseMs: opts.leaseMs },
    });
  }
  const { actions } = opts;
  const inFlight = new Set<Promise<unknown>>();
  const iso = (offsetMs = 0) => new Date(opts.clock.now() + offsetMs).toISOString();
  const recoveryDeps = { actions, executors: opts.executors, clock: opts.clock };
  const trace = createActionTrace(opts.trace && { ...opts.trace, now: () => iso() });

  /** Loads an action of this tenant, recovering it first when its claim was abandoned. */
  async function load(tenantId: string, actionId: string): Promise<StoredAction> {
    const action = await actions.get(tenantId, actionId);
    if (action === null) throw new SolError("not_found", `No action ${actionId}.`);
    const leaseOver = action.leaseExpiresAt === null || action.leaseExpiresAt < iso();
    if (action.status === "executing" && leaseOver) return recoverAction(recoveryDeps, action);
    return action;
  }

  function notExecutable(action: StoredAction): SolError {
    return new SolError(
      "invalid_transition",
      `Action ${action.actionId} is ${action.status}; only a proposed, deferred or failed action can be executed.`,
      { details: { action_id: action.actionId, status: action.status } },
    );
  }

  /** A duplicate of a request that is running: wait for its answer rather than run anything. */
  async function awaitTwin(
    tenantId: string,
    actionId: string,
    requestId: string,
  ): Promise<ExecuteActionResult> {
    const deadline = opts.clock.now() + opts.leaseMs;
    for (;;) {
      const answered = await actions.getExecution(tenantId, actionId, requestId);
      if (answered) return executionToResult(answered);
      const current = await load(tenantId, actionId);
      if (current.status !== "executing" || current.executeRequestId !== requestId) {
        return toExecuteResult(current);
      }
      if (opts.clock.now() >= deadline) return toExecuteResult(current);
      await opts.sleep(opts.pollMs);
    }
  }

  async function claimAndRun(tenantId: string, input: ExecuteActionInput): Promise<ExecuteActionResult> {
    const { action_id: actionId, request_id: requestId } = input;
    let action = await load(tenantId, actionId);
    const answered = await actions.getExecution(tenantId, actionId, requestId);
    if (answered) return executionToResult(answered);
    // A claim that loses is tried again from the state that won, while that state is still
    // executable (a concurrent Not now leaves it so); each pass re-checks it from the top.
    for (let attempt = 1; ; attempt++) {
      if (action.status === "executing" && action.executeRequestId === requestId) {
        return awaitTwin(tenantId, actionId, requestId);
      }
      const approved = transitionAction(action.status, "approve");
      if (!approved.ok) throw notExecutable(action);
      const payload = verifyBinding(action, opts.keyring);
      const started = transitionAction(approved.value, "start");
      if (!started.ok) throw notExecutable(action);
      // The database decides between racing approvals: only one conditional update matches.
      const claimed = await actions.compareAndSet(
        tenantId,
        actionId,
        { status: action.status, version: action.version, payloadHash: action.payloadHash },
        {
          status: started.value,
          executeRequestId: requestId,
          leaseExpiresAt: iso(opts.leaseMs),
          receipt: null,
          error: null,
          now: iso(),
        },
      );
      if (claimed !== null) {
        await trace.approved(claimed, requestId);
        return run(tenantId, claimed, payload, requestId);
      }
      const current = await load(tenantId, actionId);
      const raced = await actions.getExecution(tenantId, actionId, requestId);
      if (raced) return executionToResult(raced);
      const twin = current.status === "executing" && current.executeRequestId === requestId;
      if (attempt >= MAX_CLAIM_ATTEMPTS && !twin) throw notExecutable(current);
      action = current;
    }
  }

  /** The failed outcome of a denied action (or of a check that could not run: fail closed); null to run. */
  async function policyDenial(ctx: ActionPolicyContext): Promise<ExecutionOutcome | null> {
    try {
      const verdict = await opts.policy?.before(ctx);
      if (verdict === undefined || verdict.allowed) return null;
      return { status: "failed", error: { reason: clipLine(`Not allowed: ${verdict.reason}`, 300) } };
    } catch {
      return { status: "failed", error: { reason: "The action's policy check failed; it did not run." } };
    }
  }

  /** `action_post` only records: a failure to record must not turn a done action into a failed one. */
  async function recordPost(ctx: ActionPolicyContext & { readonly outcome: ExecutionOutcome }) {
    await opts.policy?.after(ctx).catch(() => {});
  }

  async function run(
    tenantId: string,
    claimed: StoredAction,
    payload: ReturnType<typeof verifyBinding>,
    requestId: string,
  ): Promise<ExecuteActionResult> {
    const actionId = claimed.actionId;
    const executor = opts.executors.get(claimed.kind);
    const checked = opts.policy
      ? {
          tenantId,
          threadId: claimed.threadId,
          actionId,
          kind: claimed.kind,
          params: policyParamsOf(executor, payload),
        }
      : null;
    const denial = checked === null ? null : await policyDenial(checked);
    const outcome =
      denial ??
      (await runExecutor(
        executor,
        claimed.kind,
        payload,
        { tenantId, threadId: claimed.threadId, actionId, requestId, nowMs: opts.clock.now() },
        opts.executeTimeoutMs,
      ));
    if (checked !== null && denial === null) await recordPost({ ...checked, outcome });
    await trace.finished(claimed, requestId, outcome);
    const finished = await actions.finish({
      tenantId,
      actionId,
      version: claimed.version,
      requestId,
      outcome,
      now: iso(),
    });
    // Null only when the claim was recovered under us (lease overrun): report what is stored now.
    return finished === null ? toExecuteResult(await load(tenantId, actionId)) : toExecuteResult(finished);
  }

  const recorder: ActionRecorder = async (args) => {
    const shown: ActionNeeded[] = [];
    let suppressed = 0;
    for (const proposed of args.proposals) {
      const kind = proposed.proposal.action_kind;
      try {
        const result = await proposeAction(opts, {
          ...proposed,
          tenantId: args.tenantId,
          threadId: args.threadId,
          messageId: args.messageId,
          source: "envelope",
          explicitRequest: userAsksForAction(args.message, kind),
        });
        if (result.outcome === "suppressed") suppressed += 1;
        else if (!shown.some((a) => a.action_id === result.action.action_id)) shown.push(result.action);
      } catch (error) {
        // A proposal the store cannot hold (e.g. a NUL in a label) is dropped, not the whole turn.
        if (!isSolError(error) || error.code !== "invalid_input") throw error;
        args.trace.add("action_gate", "warning", "Dropped an action proposal that cannot be stored", {
          actionKind: kind,
          reason: error.message,
        });
      }
    }
    if (args.proposals.length > 0) {
      args.trace.add(
        "action_gate",
        "completed",
        `Actions proposed: ${shown.length}, suppressed: ${suppressed}`,
        {
          proposed: shown.map((a) => ({ actionId: a.action_id, kind: a.action_kind })),
          suppressed,
        },
      );
    }
    return shown;
  };

  return Object.freeze({
    propose: (input: ProposeActionInput) => proposeAction(opts, input),
    recorder,
    async get(tenantId: string, actionId: string) {
      return toActionView(await load(tenantId, actionId));
    },
    async execute(tenantId: string, input: ExecuteActionInput) {
      const work = claimAndRun(tenantId, input);
      inFlight.add(work);
      try {
        return await work;
      } finally {
        inFlight.delete(work);
      }
    },
    async defer(tenantId: string, actionId: string): Promise<DeferActionResult> {
      const action = await load(tenantId, actionId);
      if (action.status === "deferred") return { status: "deferred" };
      const next = transitionAction(action.status, "defer");
      if (!next.ok) {
        throw new SolError(
          "invalid_transition",
          `Action ${actionId} is ${action.status}; only a proposed action can be deferred.`,
          { details: { action_id: actionId, status: action.status } },
        );
      }
      const done = await actions.compareAndSet(
        tenantId,
        actionId,
        { status: action.status, version: action.version },
        { status: next.value, now: iso() },
      );
      if (done !== null) {
        await trace.deferred(done);
        return { status: "deferred" };
      }
      const current = await load(tenantId, actionId);
      if (current.status === "deferred") return { status: "deferred" };
      throw new SolError(
        "invalid_transition",
        `Action ${actionId} is ${current.status}; it can no longer be deferred.`,
        {
          details: { action_id: actionId, status: current.status },
        },
      );
    },
    async recoverExpired() {
      let recovered = 0;
      for (;;) {
        const expired = await actions.listExpiredExecuting(iso(), RECOVERY_BATCH);
        let changed = 0;
        for (const action of expired) {
          const after = await recoverAction(recoveryDeps, action);
          if (after.status !== "executing") changed += 1;
        }
        recovered += changed;
        if (expired.length < RECOVERY_BATCH || changed === 0) return recovered;
      }
    },
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  });
}
