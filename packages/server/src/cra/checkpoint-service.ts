import {
  ActionNeeded,
  type CheckpointAction,
  type CheckpointEngine,
  type CheckpointEvaluateRequest,
  type CheckpointEvaluation,
  type CheckpointSessionState,
  CheckpointTraceEvent,
  type Clock,
  cloneSession,
  FiredCheckpoint,
  fail,
  type IdGenerator,
  type PendingCheckpointConfirmation,
  type Result,
  restoreCheckpointSession,
  SolError,
  type TraceEvent,
  type TraceEventDraft,
} from "@solserver/core";
import { z } from "zod";
import type { CheckpointSessionStore, StoredCheckpointSession } from "../store/index.js";
import { createKeyedMutex } from "./keyed-mutex.js";
import { evaluateApprovedAction, type ServerActionVerdict } from "./server-action-check.js";
import { checkpointTraceRunId } from "./session-ids.js";
import { CHECKPOINT_TRACE_PHASE, evaluationTraceDrafts } from "./trace-drafts.js";

/**
 * Called when an `action_pre` needs the user's confirmation, before the session is committed. It
 * stores the request as a real action (the permission gate) and returns the ActionNeeded to show,
 * which may name an existing identical action. It can be called again for the same evaluation when a
 * concurrent writer forces a retry, always with the same `request_id` (`evaluationId`).
 */
export type ConfirmationRequiredHook = (args: {
  readonly tenantId: string;
  readonly sessionId: string;
  readonly evaluationId: string;
  readonly action: CheckpointAction;
  readonly actionNeeded: ActionNeeded;
}) => Promise<ActionNeeded>;

export interface CheckpointServiceOptions {
  readonly engine: CheckpointEngine;
  readonly sessions: CheckpointSessionStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly onConfirmationRequired?: ConfirmationRequiredHook;
  /** Compare-and-swap attempts before giving up with `conflict` (default 8). */
  readonly maxAttempts?: number;
  /** Sessions whose last written state is kept in memory to skip a read (default 10000; 0: none). */
  readonly knownSessions?: number;
}

/** One HTTP evaluation: the api.md answer plus where its events were chained. */
export interface CheckpointEvaluateOutcome {
  readonly evaluation: CheckpointEvaluation;
  readonly evaluationId: string;
  readonly traceRunId: string;
  /** The stored (sequenced, hashed) trace events this evaluation appended. */
  readonly traceEvents: readonly TraceEvent[];
}

/** What a chat turn's checkpoints produced; remembered per requestId for a re-run. */
export const TurnCheckpointResult = z
  .object({
    injectContext: z.array(z.string()),
    fired: z.array(FiredCheckpoint),
    traceEvents: z.array(CheckpointTraceEvent),
    sessionStarted: z.boolean(),
  })
  .strict();
export type TurnCheckpointResult = z.infer<typeof TurnCheckpointResult>;

export interface TurnCheckpointOutcome extends TurnCheckpointResult {
  readonly sessionId: string;
  /** True when this is a re-run of the same request and the remembered result was returned. */
  readonly replayed: boolean;
}

export interface CheckpointService {
  readonly engine: CheckpointEngine;
  /** `POST /v1/checkpoints/evaluate`: one event for one of the tenant's sessions. */
  evaluate(tenantId: string, request: CheckpointEvaluateRequest): Promise<CheckpointEvaluateOutcome>;
  /** A chat turn: `session_start` when the session has not started, then `input` with the message. */
  evaluateTurn(args: {
    readonly tenantId: string;
    readonly sessionId: string;
    readonly requestId: string;
    readonly input: string;
  }): Promise<TurnCheckpointOutcome>;
  /** The user approved a pending confirmation: the next identical `action_pre` passes once. */
  grantConfirmation(
    tenantId: string,
    sessionId: string,
    actionId: string,
  ): Promise<Result<PendingCheckpointConfirmation>>;
  /**
   * The server's own action around its run, in the thread's session: `action_pre` before it (the
   * user's Approve is the confirmation; a policy denial stands) and `action_post` after it.
   */
  checkServerAction(args: {
    readonly tenantId: string;
    readonly sessionId: string;
    readonly stage: "pre" | "post";
    readonly action: CheckpointAction;
  }): Promise<ServerActionVerdict>;
  /** The stored state of a session, or null. */
  getSession(tenantId: string, sessionId: string): Promise<CheckpointSessionState | null>;
}

type Step<T> =
  | { readonly kind: "skip"; readonly value: T }
  | {
      readonly kind: "write";
      readonly value: T;
      readonly memo?: { readonly requestId: string; readonly result: unknown };
      readonly trace?: {
        readonly traceRunId: string;
        readonly transmissionId: string | null;
        readonly drafts: readonly TraceEventDraft[];
      };
    };

const DEFAULTS = { maxAttempts: 8, knownSessions: 10_000 };

/**
 * Runs checkpoint evaluations against stored session state. Evaluations of one session are
 * serialised in this process by a lock and across processes by compare-and-swap on the row version
 * (a lost race re-reads the state and evaluates again); the state and the evaluation's trace events
 * commit in one transaction.
 */
export function createCheckpointService(options: CheckpointServiceOptions): CheckpointService {
  const opts = Object.freeze({ ...DEFAULTS, ...options });
  if (!Number.isSafeInteger(opts.maxAttempts) || opts.maxAttempts < 1) {
    throw new SolError("invalid_input", "maxAttempts must be a positive integer");
  }
  const { engine, sessions } = opts;
  const locks = createKeyedMutex();
  // The last state this process wrote per session, so the next evaluation skips reading it back (a
  // read, and under SQLite group commit one more wait for a COMMIT, on every chat turn). Writes stay
  // compare-and-swap on the version: if another process wrote since, the write fails, the entry is
  // dropped and the loop re-reads the stored state. Insertion-ordered map as a bounded LRU.
  const known = new Map<string, StoredCheckpointSession>();
  const remember = (key: string, value: StoredCheckpointSession) => {
    known.delete(key);
    known.set(key, value);
    if (known.size > opts.knownSessions) {
      const oldest = known.keys().next().value;
      if (oldest !== undefined) known.delete(oldest);
    }
  };
  const iso = () => new Date(opts.clock.now()).toISOString();

  function restore(sessionId: string, stored: StoredCheckpointSession | null): CheckpointSessionState {
    if (stored === null) return engine.createSession(sessionId);
    const restored = restoreCheckpointSession(stored.state);
    if (!restored.ok || restored.value.sessionId !== sessionId) {
      throw new SolError("internal", `The stored state of checkpoint session ${sessionId} is unreadable.`, {
        details: restored.ok ? [] : restored.issues,
      });
    }
    return restored.value;
  }

  async function withSession<T>(
    tenantId: string,
    sessionId: string,
    step: (state: CheckpointSessionState, stored: StoredCheckpointSession | null) => Promise<Step<T>>,
  ): Promise<{ value: T; events: readonly TraceEvent[] }> {
    const key = `${tenantId}\u0000${sessionId}`;
    return locks.run(key, async () => {
      for (let attempt = 1; attempt <= opts.maxAttempts; attempt++) {
        const cached = attempt === 1 ? known.get(key) : undefined;
        const stored = cached ?? (await sessions.get(tenantId, sessionId));
        // A state this process wrote was valid when written: it needs a copy, not the schema again.
        // The state is plain JSON, and a JSON copy of it costs a fraction of a structuredClone.
        const state =
          cached === undefined
            ? restore(sessionId, stored)
            : cloneSession(cached.state as CheckpointSessionState);
        const result = await step(state, stored);
        if (result.kind === "skip") return { value: result.value, events: [] };
        const now = iso();
        const written = await sessions.put({
          tenantId,
          sessionId,
          state,
          expectedVersion: stored?.version ?? null,
          now,
          ...(result.memo ? { memo: result.memo } : {}),
          ...(result.trace ? { trace: result.trace } : {}),
        });
        if (!written.ok) {
          known.delete(key);
          continue;
        }
        remember(key, {
          // A copy: the caller may keep using `state` after this returns.
          state: cloneSession(state),
          version: written.version,
          lastRequestId: result.memo ? result.memo.requestId : (stored?.lastRequestId ?? null),
          lastResult: result.memo ? structuredClone(result.memo.result) : (stored?.lastResult ?? null),
          updatedAt: now,
        });
        return { value: result.value, events: written.events };
      }
      throw new SolError(
        "conflict",
        `Checkpoint session ${sessionId} kept changing during the evaluation; retry the request.`,
      );
    });
  }

  /**
   * Binds a confirmation to this evaluation and (through the hook) to a stored action. `before` is the
   * session's pending list before the evaluation: when the hook answers with an action that is pending
   * there already (the agent asked again while it is open), the engine's new entry is undone, so
   * repeated asks never push other open confirmations out of the capped list.
   */
  async function confirm(
    tenantId: string,
    state: CheckpointSessionState,
    before: CheckpointSessionState["pendingConfirmations"],
    evaluation: CheckpointEvaluation,
    action: CheckpointAction,
    evaluationId: string,
  ): Promise<CheckpointEvaluation> {
    const needed = evaluation.requireConfirmation;
    if (!needed) return evaluation;
    let final: ActionNeeded = { ...needed, request_id: evaluationId };
    if (opts.onConfirmationRequired) {
      const answered = ActionNeeded.safeParse(
        await opts.onConfirmationRequired({
          tenantId,
          sessionId: state.sessionId,
          evaluationId,
          action,
          actionNeeded: final,
        }),
      );
      if (!answered.success) {
        throw new SolError("internal", "The confirmation hook returned an invalid ActionNeeded.", {
          details: answered.error.issues,
        });
      }
      final = answered.data;
    }
    if (before.some((p) => p.action_id === final.action_id)) {
      state.pendingConfirmations = before;
      return { ...evaluation, requireConfirmation: final };
    }
    const pending = state.pendingConfirmations.find((p) => p.action_id === needed.action_id);
    if (pending) {
      pending.action_id = final.action_id;
      pending.request_id = final.request_id;
    }
    return { ...evaluation, requireConfirmation: final };
  }

  return {
    engine,

    async evaluate(tenantId, request) {
      const { sessionId, event } = request;
      const evaluationId = opts.ids("cpe");
      const traceRunId = checkpointTraceRunId(sessionId);
      const { value, events } = await withSession(tenantId, sessionId, async (state) => {
        const before = [...state.pendingConfirmations];
        let evaluation = await engine.evaluate(state, event);
        if (event.action) {
          evaluation = await confirm(tenantId, state, before, evaluation, event.action, evaluationId);
        }
        return {
          kind: "write",
          value: evaluation,
          trace: {
            traceRunId,
            transmissionId: evaluationId,
            drafts: evaluationTraceDrafts({ evaluationId, sessionId, event, evaluation }),
          },
        };
      });
      return { evaluation: value, evaluationId, traceRunId, traceEvents: events };
    },

    async evaluateTurn({ tenantId, sessionId, requestId, input }) {
      const { value } = await withSession<TurnCheckpointOutcome>(
        tenantId,
        sessionId,
        async (state, stored) => {
          if (stored?.lastRequestId === requestId) {
            const remembered = TurnCheckpointResult.safeParse(stored.lastResult);
            if (remembered.success) {
              return { kind: "skip", value: { ...remembered.data, sessionId, replayed: true } };
            }
          }
          const sessionStarted = !state.started;
          const parts: CheckpointEvaluation[] = [];
          if (sessionStarted) parts.push(await engine.evaluate(state, { type: "session_start" }));
          parts.push(await engine.evaluate(state, { type: "input", input }));
          const result: TurnCheckpointResult = {
            injectContext: [...new Set(parts.flatMap((p) => p.injectContext))],
            fired: parts.flatMap((p) => p.fired),
            traceEvents: parts.flatMap((p) => p.traceEvents),
            sessionStarted,
          };
          return {
            kind: "write",
            value: { ...result, sessionId, replayed: false },
            memo: { requestId, result },
          };
        },
      );
      return value;
    },

    async grantConfirmation(tenantId, sessionId, actionId) {
      type Granted = Result<PendingCheckpointConfirmation>;
      const { value } = await withSession<Granted>(tenantId, sessionId, async (state, stored) => {
        if (stored === null) {
          return {
            kind: "skip",
            value: fail({
              code: "not_found",
              message: `no checkpoint session ${sessionId}`,
              path: ["sessionId"],
            }),
          };
        }
        const granted = engine.grantConfirmation(state, actionId);
        if (!granted.ok) return { kind: "skip", value: granted };
        return {
          kind: "write",
          value: granted,
          trace: {
            traceRunId: checkpointTraceRunId(sessionId),
            transmissionId: null,
            drafts: [
              {
                actor: "user",
                phase: CHECKPOINT_TRACE_PHASE,
                status: "completed",
                summary: `confirmation granted for ${granted.value.action_type}`,
                metadata: {
                  sessionId,
                  action_id: granted.value.action_id,
                  request_id: granted.value.request_id,
                  action: granted.value.action_type,
                },
              },
            ],
          },
        };
      });
      return value;
    },

    async checkServerAction({ tenantId, sessionId, stage, action }) {
      const evaluationId = opts.ids("cpe");
      const { value } = await withSession(tenantId, sessionId, async (state) => {
        const event = { type: stage === "pre" ? "action_pre" : "action_post", action } as const;
        const { evaluation, verdict } =
          stage === "pre"
            ? await evaluateApprovedAction(engine, state, action)
            : { evaluation: await engine.evaluate(state, event), verdict: { allowed: true } as const };
        return {
          kind: "write",
          value: verdict,
          trace: {
            traceRunId: checkpointTraceRunId(sessionId),
            transmissionId: evaluationId,
            drafts: evaluationTraceDrafts({ evaluationId, sessionId, event, evaluation }),
          },
        };
      });
      return value;
    },

    async getSession(tenantId, sessionId) {
      const stored = await sessions.get(tenantId, sessionId);
      return stored === null ? null : restore(sessionId, stored);
    },
  };
}
