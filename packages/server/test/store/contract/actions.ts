import { hashActionPayload, isSolError } from "@solserver/core";
import { describe, expect, it } from "vitest";
import type { NewAction } from "../../../src/store/index.js";
import { T0 } from "../support/samples.js";
import type { PortContractOptions, PortHarness, PortStore } from "./harness.js";

export const A = "tenant-a";
const B = "tenant-b";
const LATER = "2025-03-01T10:05:00.000Z";
const payload = { title: "call the bank", due: "2025-03-02T09:00:00.000Z", tags: ["money", "ü"] };

/** A proposal of tenant A with the sample payload; `overrides` replace fields. */
export function newAction(actionId: string, overrides: Partial<NewAction> = {}): NewAction {
  return {
    tenantId: A,
    actionId,
    threadId: "th",
    messageId: "msg-1",
    requestId: "req-1",
    source: "envelope",
    kind: "create_reminder",
    label: "Create Reminder",
    bullets: ["Create a reminder: call the bank", "Due: tomorrow at 9"],
    target: "Reminders",
    dataUsed: null,
    why: "You asked me to.",
    payload,
    payloadHash: hashActionPayload("create_reminder", payload),
    bindingKeyId: "0123456789abcdef",
    bindingMac: "ab".repeat(32),
    now: T0,
    ...overrides,
  };
}

async function claim(store: PortStore, actionId: string, requestId: string, version = 1) {
  return store.actions.compareAndSet(
    A,
    actionId,
    { status: "proposed", version },
    { status: "executing", executeRequestId: requestId, leaseExpiresAt: LATER, now: LATER },
  );
}

/** The permission gate's tables: actions (CAS claims), execution answers, reminders, calendar events. */
export function actionContract(harness: PortHarness, options: PortContractOptions): void {
  describe("actions", () => {
    it("round-trips a proposal exactly, as proposed version 1", async () => {
      const store = await harness.open();
      const inserted = await store.actions.insert(newAction("a1"));
      const { now: _now, ...fields } = newAction("a1");
      const expected = {
        ...fields,
        status: "proposed",
        receipt: null,
        error: null,
        executeRequestId: null,
        leaseExpiresAt: null,
        createdAt: T0,
        updatedAt: T0,
        version: 1,
      };
      expect(inserted).toEqual(expected);
      expect(await store.actions.get(A, "a1")).toEqual(expected);
      expect(await store.actions.get(B, "a1")).toBeNull();
      const dup = await store.actions.insert(newAction("a1")).catch((e: unknown) => e);
      expect(isSolError(dup) && dup.code).toBe("conflict");
    });

    it("lists identical proposals of one thread only, oldest first", async () => {
      const store = await harness.open();
      const hash = hashActionPayload("create_reminder", payload);
      await store.actions.insert(newAction("a2", { now: LATER }));
      await store.actions.insert(newAction("a1"));
      await store.actions.insert(newAction("other-thread", { threadId: "th2" }));
      await store.actions.insert(newAction("other-tenant", { tenantId: B }));
      await store.actions.insert(
        newAction("other-payload", {
          payload: { title: "x" },
          payloadHash: hashActionPayload("create_reminder", { title: "x" }),
        }),
      );
      const ids = (await store.actions.listIdentical(A, "th", "create_reminder", hash)).map(
        (a) => a.actionId,
      );
      expect(ids).toEqual(["a1", "a2"]);
    });

    it("compare-and-swap: of many racing claims exactly one wins and bumps the version", async () => {
      const stores = options.sharedUrl
        ? await Promise.all([harness.open(), harness.open()])
        : [await harness.open()];
      const first = stores[0]!;
      await first.actions.insert(newAction("race"));
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          stores[i % stores.length]!.actions.compareAndSet(
            A,
            "race",
            { status: "proposed", version: 1 },
            { status: "executing", executeRequestId: `r${i}`, leaseExpiresAt: LATER, now: LATER },
          ),
        ),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(winners[0]).toMatchObject({ status: "executing", version: 2, leaseExpiresAt: LATER });
      const row = await first.actions.get(A, "race");
      expect(row?.executeRequestId).toBe(winners[0]?.executeRequestId);
    });

    it("a claim expecting a version no row can hold loses", async () => {
      const store = await harness.open();
      await store.actions.insert(newAction("a1"));
      for (const version of [2 ** 31, 1e30, 0.5, Number.NaN]) {
        expect(await claim(store, "a1", "x1", version), String(version)).toBeNull();
      }
      expect(await store.actions.get(A, "a1")).toMatchObject({ status: "proposed", version: 1 });
    });

    it("a claim also needs the same payload hash, and another tenant cannot claim", async () => {
      const store = await harness.open();
      await store.actions.insert(newAction("h"));
      const patch = { status: "executing" as const, executeRequestId: "r", now: LATER };
      expect(
        await store.actions.compareAndSet(
          A,
          "h",
          { status: "proposed", version: 1, payloadHash: "0".repeat(64) },
          patch,
        ),
      ).toBeNull();
      expect(await store.actions.compareAndSet(B, "h", { status: "proposed", version: 1 }, patch)).toBeNull();
      expect(await store.actions.compareAndSet(A, "h", { status: "deferred", version: 1 }, patch)).toBeNull();
      expect((await store.actions.get(A, "h"))?.version).toBe(1);
    });

    it("finish records the outcome and the answer for the claiming request, atomically and only once", async () => {
      const store = await harness.open();
      await store.actions.insert(newAction("f"));
      const claimed = await claim(store, "f", "exec-1");
      expect(claimed?.version).toBe(2);
      const receipt = { summary: "Reminder created: call the bank" };
      const wrongRequest = await store.actions.finish({
        tenantId: A,
        actionId: "f",
        version: 2,
        requestId: "exec-2",
        outcome: { status: "succeeded", receipt },
        now: LATER,
      });
      expect(wrongRequest).toBeNull();
      expect(await store.actions.getExecution(A, "f", "exec-2")).toBeNull();
      const done = await store.actions.finish({
        tenantId: A,
        actionId: "f",
        version: 2,
        requestId: "exec-1",
        outcome: { status: "succeeded", receipt },
        now: LATER,
      });
      expect(done).toMatchObject({
        status: "succeeded",
        receipt,
        error: null,
        leaseExpiresAt: null,
        version: 3,
      });
      expect(await store.actions.getExecution(A, "f", "exec-1")).toEqual({
        tenantId: A,
        actionId: "f",
        requestId: "exec-1",
        status: "succeeded",
        receipt,
        createdAt: LATER,
      });
      expect(await store.actions.getExecution(B, "f", "exec-1")).toBeNull();
      const again = await store.actions.finish({
        tenantId: A,
        actionId: "f",
        version: 2,
        requestId: "exec-1",
        outcome: { status: "failed", error: { reason: "late" } },
        now: LATER,
      });
      expect(again).toBeNull();
      expect((await store.actions.getExecution(A, "f", "exec-1"))?.status).toBe("succeeded");
    });

    it("a failure is recorded with its reason and a retry claims from failed", async () => {
      const store = await harness.open();
      await store.actions.insert(newAction("fail"));
      await claim(store, "fail", "e1");
      const failed = await store.actions.finish({
        tenantId: A,
        actionId: "fail",
        version: 2,
        requestId: "e1",
        outcome: { status: "failed", error: { reason: "Down." } },
        now: LATER,
      });
      expect(failed).toMatchObject({
        status: "failed",
        error: { reason: "Down." },
        receipt: null,
        version: 3,
      });
      const retry = await store.actions.compareAndSet(
        A,
        "fail",
        { status: "failed", version: 3 },
        { status: "executing", executeRequestId: "e2", error: null, now: LATER },
      );
      expect(retry).toMatchObject({ status: "executing", executeRequestId: "e2", error: null, version: 4 });
    });

    it("lists executing actions of every tenant whose lease is over (or missing)", async () => {
      const store = await harness.open();
      for (const [id, tenant] of [
        ["old", A],
        ["fresh", A],
        ["other", B],
        ["idle", A],
      ] as const) {
        await store.actions.insert(newAction(id, { tenantId: tenant }));
      }
      const set = (tenant: string, id: string, lease: string | null) =>
        store.actions.compareAndSet(
          tenant,
          id,
          { status: "proposed", version: 1 },
          { status: "executing", executeRequestId: "r", leaseExpiresAt: lease, now: T0 },
        );
      await set(A, "old", "2025-03-01T09:00:00.000Z");
      await set(A, "fresh", "2025-03-01T11:00:00.000Z");
      await set(B, "other", null);
      const expired = await store.actions.listExpiredExecuting(T0, 10);
      expect(expired.map((a) => `${a.tenantId}/${a.actionId}`).sort()).toEqual([
        "tenant-a/old",
        "tenant-b/other",
      ]);
      expect(await store.actions.listExpiredExecuting(T0, 1)).toHaveLength(1);
    });

    it("rejects text neither backend can store", async () => {
      const store = await harness.open();
      const bad = await store.actions
        .insert(newAction("nul", { label: "a\u0000b" }))
        .catch((e: unknown) => e);
      expect(isSolError(bad) && bad.code).toBe("invalid_input");
    });
  });

  describe("reminders and calendar events", () => {
    const reminder = (reminderId: string, actionId: string | null, tenantId = A) => ({
      tenantId,
      reminderId,
      actionId,
      threadId: "th",
      title: "call the bank",
      due: "tomorrow at 9",
      dueAt: null,
      createdAt: T0,
    });

    it("keeps one reminder per action and scopes them to their tenant", async () => {
      const store = await harness.open();
      const first = await store.reminders.create(reminder("rem-1", "act-1"));
      expect(first).toEqual({ reminder: reminder("rem-1", "act-1"), created: true });
      const second = await store.reminders.create(reminder("rem-2", "act-1"));
      expect(second).toEqual({ reminder: reminder("rem-1", "act-1"), created: false });
      await store.reminders.create(reminder("rem-3", null));
      await store.reminders.create(reminder("rem-4", null));
      await store.reminders.create(reminder("rem-b", "act-1", B));
      expect((await store.reminders.list(A)).map((r) => r.reminderId)).toEqual(["rem-1", "rem-3", "rem-4"]);
      expect((await store.reminders.list(A, { threadId: "nope" })).length).toBe(0);
      expect(await store.reminders.getByAction(B, "act-1")).toEqual(reminder("rem-b", "act-1", B));
    });

    it("keeps one event per action, lists by start, and scopes them to their tenant", async () => {
      const store = await harness.open();
      const event = (eventId: string, actionId: string, start: string, tenantId = A) => ({
        tenantId,
        eventId,
        actionId,
        threadId: "th",
        title: `Event ${eventId}`,
        start,
        end: null,
        location: "Room 4, 2nd floor",
        createdAt: T0,
      });
      await store.calendar.create(event("e-late", "a1", "2025-04-02T09:00:00.000Z"));
      await store.calendar.create(event("e-day", "a2", "2025-04-01"));
      const repeat = await store.calendar.create(event("e-dup", "a1", "2025-01-01T00:00:00.000Z"));
      expect(repeat.created).toBe(false);
      expect(repeat.event.eventId).toBe("e-late");
      await store.calendar.create(event("e-b", "a9", "2025-01-01", B));
      expect((await store.calendar.list(A)).map((e) => e.eventId)).toEqual(["e-day", "e-late"]);
      expect((await store.calendar.list(B)).map((e) => e.eventId)).toEqual(["e-b"]);
      expect(await store.calendar.getByAction(A, "a2")).toEqual(event("e-day", "a2", "2025-04-01"));
    });
  });
}
