import type { ActionStatus } from "@solserver/core";
import { failureReason, outcomeOf } from "../chip/execution-outcome.js";
import type { ChipStore } from "./chip-store.js";

/** What the chip needs of an action's state; optional parts may be absent or undefined (schema output). */
interface ActionOutcomeView {
  status: ActionStatus;
  receipt?: { summary: string } | undefined;
  error?: { reason: string } | undefined;
}

/** The server calls the chip's decisions need (SolClient fits, through SolSession). */
export interface ActionApi {
  executeAction(actionId: string, requestId: string): Promise<ActionOutcomeView>;
  getAction(actionId: string): Promise<ActionOutcomeView>;
  /** `POST /v1/actions/:actionId/defer`: the server records "Not now" (and traces it). */
  deferAction(actionId: string): Promise<unknown>;
  newRequestId(): string;
}

export interface ActionRunnerOptions {
  readonly now?: () => number;
  /** Pause between status polls while the server reports approved/executing. */
  readonly pollMs?: number;
  /** Polls before the chip gives up waiting and offers Retry. */
  readonly maxPolls?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

const DEFAULTS = {
  now: () => Date.now(),
  pollMs: 500,
  maxPolls: 120,
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

const statusOf = (err: unknown): number | undefined => {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
};

/**
 * Carries the chip's decisions to the server. Approve and Retry each send
 * `POST /v1/actions/execute` (Approve with the action's own request_id, Retry with a fresh one).
 * Not now is recorded locally at once and then sent as `POST /v1/actions/:id/defer`, which never
 * executes anything; Dismiss stays local.
 */
export class ActionRunner {
  private readonly options: Required<ActionRunnerOptions>;
  /** Actions whose execution this page is following, so a remounted chip does not follow twice. */
  private readonly following = new Set<string>();

  constructor(
    private readonly chips: ChipStore,
    private readonly api: ActionApi,
    options: ActionRunnerOptions = {},
  ) {
    this.options = Object.freeze({ ...DEFAULTS, ...options });
  }

  /**
   * Approve: one tap, one execute request. It carries the `request_id` the action came with (the
   * chip spec's state link), unless that id is empty or already used here; Retry always takes a new
   * one, since the same id would only replay the failed result. Returns the promise of the attempt
   * (settled, never rejected).
   */
  approve(actionId: string, actionRequestId?: string): Promise<void> {
    const used = this.chips.get(actionId).usedRequestIds;
    const requestId =
      actionRequestId !== undefined && actionRequestId !== "" && !used.includes(actionRequestId)
        ? actionRequestId
        : this.api.newRequestId();
    const started = this.chips.dispatch(actionId, { type: "approve", requestId, at: this.options.now() });
    return started.ok ? this.execute(actionId, requestId) : Promise.resolve();
  }

  /** Retry after a failure, with a new request_id. */
  retry(actionId: string): Promise<void> {
    const requestId = this.api.newRequestId();
    const started = this.chips.dispatch(actionId, { type: "retry", requestId });
    return started.ok ? this.execute(actionId, requestId) : Promise.resolve();
  }

  /**
   * Not now: recorded locally as a deferral (the chip closes at once), then sent to the server so
   * the deferral is stored and traced there too. Returns the promise of that call (never rejected:
   * a lost call leaves the action proposed on the server, which is as safe as deferred).
   */
  defer(actionId: string): Promise<void> {
    const done = this.chips.dispatch(actionId, { type: "defer", at: this.options.now() });
    if (!done.ok) return Promise.resolve();
    return this.api.deferAction(actionId).then(
      () => undefined,
      (err: unknown) => console.error("[sol] defer:", err),
    );
  }

  /** Dismiss a failed action. */
  dismiss(actionId: string): void {
    this.chips.dispatch(actionId, { type: "dismiss" });
  }

  /** A chip left pending by a reload: asks the server how its execution ended. */
  resume(actionId: string): Promise<void> {
    const chip = this.chips.get(actionId);
    if (chip.phase !== "pending" || chip.requestId === null || this.following.has(actionId)) {
      return Promise.resolve();
    }
    return this.follow(actionId, chip.requestId, () => this.api.getAction(actionId));
  }

  private execute(actionId: string, requestId: string): Promise<void> {
    return this.follow(actionId, requestId, async () => {
      try {
        return await this.api.executeAction(actionId, requestId);
      } catch (err) {
        // 409: the action already left the proposed state (another tab, a lost reply); read where it is.
        if (statusOf(err) === 409) return this.api.getAction(actionId);
        throw err;
      }
    });
  }

  private async follow(
    actionId: string,
    requestId: string,
    first: () => ReturnType<ActionApi["getAction"]>,
  ): Promise<void> {
    const { pollMs, maxPolls, sleep } = this.options;
    this.following.add(actionId);
    try {
      let reply = await first();
      for (let polls = 0; ; polls++) {
        const outcome = outcomeOf(requestId, reply);
        if (outcome.kind === "event") {
          this.chips.dispatch(actionId, outcome.event);
          return;
        }
        if (polls >= maxPolls) break;
        await sleep(pollMs);
        reply = await this.api.getAction(actionId);
      }
      this.chips.dispatch(actionId, {
        type: "fail",
        requestId,
        reason: "Still running on the server; try again later.",
      });
    } catch (err) {
      this.chips.dispatch(actionId, { type: "fail", requestId, reason: failureReason(err) });
    } finally {
      this.following.delete(actionId);
    }
  }
}
