import type { ActionStatus } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { type ActionApi, ActionRunner } from "../src/session/action-runner.js";
import { ChipStore } from "../src/session/chip-store.js";
import { TelemetryStore } from "../src/telemetry/telemetry-store.js";

type Reply = { status: ActionStatus; receipt?: { summary: string }; error?: { reason: string } };

/** An in-memory gate with the api.md semantics: at most once per action, replay per request_id. */
class FakeGate implements ActionApi {
  readonly executeCalls: string[] = [];
  readonly getCalls: string[] = [];
  readonly deferCalls: string[] = [];
  /** When set, the defer call fails as a lost request would. */
  deferFails = false;
  status: ActionStatus = "proposed";
  /** Outcomes of the next executions, in order; "throw" is a transport failure. */
  plan: Array<Reply | "throw" | "409"> = [];
  /** Replies to GET while an execution is "running". */
  polls: Reply[] = [];
  private ids = 0;
  private readonly byRequest = new Map<string, Reply>();

  newRequestId(): string {
    this.ids += 1;
    return `req_${this.ids}`;
  }

  async executeAction(_actionId: string, requestId: string): Promise<Reply> {
    this.executeCalls.push(requestId);
    const replay = this.byRequest.get(requestId);
    if (replay) return replay;
    const next = this.plan.shift() ?? { status: "succeeded", receipt: { summary: "Reminder created" } };
    if (next === "throw") throw Object.assign(new Error("socket hang up"), { code: "network_error" });
    if (next === "409")
      throw Object.assign(new Error("Action is not executable"), { status: 409, code: "conflict" });
    this.status = next.status;
    this.byRequest.set(requestId, next);
    return next;
  }

  async deferAction(actionId: string): Promise<{ status: "deferred" }> {
    this.deferCalls.push(actionId);
    if (this.deferFails) throw Object.assign(new Error("socket hang up"), { code: "network_error" });
    this.status = "deferred";
    return { status: "deferred" };
  }

  async getAction(): Promise<Reply> {
    this.getCalls.push("get");
    const next = this.polls.shift();
    if (next) this.status = next.status;
    return next ?? { status: this.status, receipt: { summary: "Reminder created" } };
  }
}

function setup(gate = new FakeGate()) {
  const telemetry = new TelemetryStore();
  const chips = new ChipStore(telemetry);
  let clock = 10_000;
  const runner = new ActionRunner(chips, gate, { now: () => clock, sleep: async () => {}, maxPolls: 3 });
  return { gate, chips, telemetry, runner, tick: (ms: number) => (clock += ms) };
}

describe("ActionRunner", () => {
  it("Approve sends one execute request and ends in success with the receipt", async () => {
    const { gate, chips, runner, telemetry, tick } = setup();
    chips.dispatch("act_1", { type: "shown", at: 10_000 });
    tick(750);
    await runner.approve("act_1");
    expect(gate.executeCalls).toEqual(["req_1"]);
    expect(chips.get("act_1")).toMatchObject({ phase: "succeeded", receipt: "Reminder created" });
    expect(telemetry.snapshot()).toMatchObject({
      breakpoint_shown_count: 1,
      breakpoint_approved_count: 1,
      breakpoint_success_count: 1,
      time_to_decision_ms: [750],
    });
  });

  it("Approve carries the action's own request_id; a Retry after a failure takes a fresh one", async () => {
    const { gate, chips, runner } = setup();
    gate.plan = [{ status: "failed", error: { reason: "Upstream broke." } }];
    await runner.approve("act_1", "r-turn-1");
    expect(gate.executeCalls).toEqual(["r-turn-1"]);
    expect(chips.get("act_1").phase).toBe("failed");
    await runner.retry("act_1");
    expect(gate.executeCalls).toHaveLength(2);
    expect(gate.executeCalls[1]).not.toBe("r-turn-1");
    expect(chips.get("act_1").phase).toBe("succeeded");
  });

  it("a second Approve while the first is running sends nothing", async () => {
    const { gate, chips, runner } = setup();
    const first = runner.approve("act_1");
    const second = runner.approve("act_1");
    await Promise.all([first, second]);
    expect(gate.executeCalls).toHaveLength(1);
    expect(chips.get("act_1").phase).toBe("succeeded");
  });

  it("Not now closes the chip at once and sends one defer call, never an execute", async () => {
    const { gate, chips, runner, telemetry } = setup();
    const sent = runner.defer("act_1");
    expect(chips.get("act_1").phase).toBe("deferred");
    await sent;
    expect(gate.deferCalls).toEqual(["act_1"]);
    expect(gate.status).toBe("deferred");
    expect(gate.executeCalls).toEqual([]);
    expect(telemetry.snapshot().breakpoint_deferred_count).toBe(1);
    // A second Not now (double click) is refused locally and sends nothing more.
    await runner.defer("act_1");
    expect(gate.deferCalls).toEqual(["act_1"]);
  });

  it("a lost defer call keeps the local deferral and does not reject", async () => {
    const gate = new FakeGate();
    gate.deferFails = true;
    const { chips, runner } = setup(gate);
    const quiet = console.error;
    console.error = () => {};
    try {
      await expect(runner.defer("act_1")).resolves.toBeUndefined();
    } finally {
      console.error = quiet;
    }
    expect(chips.get("act_1").phase).toBe("deferred");
    expect(gate.executeCalls).toEqual([]);
  });

  it("a failed execution offers Retry, which uses a new request_id and can succeed", async () => {
    const gate = new FakeGate();
    gate.plan = [{ status: "failed", error: { reason: "Reminders service is down" } }];
    const { chips, runner, telemetry } = setup(gate);
    await runner.approve("act_1");
    expect(chips.get("act_1")).toMatchObject({ phase: "failed", reason: "Reminders service is down" });
    await runner.retry("act_1");
    expect(gate.executeCalls).toEqual(["req_1", "req_2"]);
    expect(chips.get("act_1")).toMatchObject({ phase: "succeeded", attempts: 2 });
    expect(telemetry.snapshot()).toMatchObject({
      breakpoint_failed_count: 1,
      breakpoint_retry_count: 1,
      breakpoint_success_count: 1,
    });
  });

  it("a transport failure becomes a human reason", async () => {
    const gate = new FakeGate();
    gate.plan = ["throw"];
    const { chips, runner } = setup(gate);
    await runner.approve("act_1");
    expect(chips.get("act_1")).toMatchObject({ phase: "failed", reason: "Can't reach the server." });
  });

  it("polls while the server reports executing", async () => {
    const gate = new FakeGate();
    gate.plan = [{ status: "executing" }];
    gate.polls = [{ status: "executing" }, { status: "succeeded", receipt: { summary: "Done later" } }];
    const { chips, runner } = setup(gate);
    await runner.approve("act_1");
    expect(gate.getCalls).toHaveLength(2);
    expect(chips.get("act_1")).toMatchObject({ phase: "succeeded", receipt: "Done later" });
  });

  it("gives up waiting after maxPolls and offers Retry", async () => {
    const gate = new FakeGate();
    gate.plan = [{ status: "executing" }];
    gate.polls = [
      { status: "executing" },
      { status: "executing" },
      { status: "executing" },
      { status: "executing" },
    ];
    const { chips, runner } = setup(gate);
    await runner.approve("act_1");
    expect(gate.getCalls).toHaveLength(3);
    expect(chips.get("act_1").phase).toBe("failed");
  });

  it("a 409 reads the action's state instead of failing blindly", async () => {
    const gate = new FakeGate();
    gate.plan = ["409"];
    gate.status = "succeeded";
    const { chips, runner } = setup(gate);
    await runner.approve("act_1");
    expect(gate.getCalls).toHaveLength(1);
    expect(chips.get("act_1")).toMatchObject({ phase: "succeeded", receipt: "Reminder created" });
  });

  it("resume follows a chip a reload left pending, once", async () => {
    const gate = new FakeGate();
    const { chips, runner } = setup(gate);
    chips.dispatch("act_1", { type: "approve", requestId: "req_old", at: 1 });
    gate.status = "succeeded";
    await Promise.all([runner.resume("act_1"), runner.resume("act_1")]);
    expect(gate.getCalls).toHaveLength(1);
    expect(gate.executeCalls).toEqual([]);
    expect(chips.get("act_1").phase).toBe("succeeded");
    await runner.resume("act_2");
    expect(gate.getCalls).toHaveLength(1);
  });

  it("Dismiss after a failure closes the chip without a server call", async () => {
    const gate = new FakeGate();
    gate.plan = [{ status: "failed", error: { reason: "no" } }];
    const { chips, runner } = setup(gate);
    await runner.approve("act_1");
    runner.dismiss("act_1");
    expect(chips.get("act_1").phase).toBe("dismissed");
    expect(gate.executeCalls).toHaveLength(1);
  });
});
