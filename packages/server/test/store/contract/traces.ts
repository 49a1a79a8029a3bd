import { createHash } from "node:crypto";
import {
  checkAnchoredRun,
  findAnchorChainBreak,
  type TraceEvent,
  type TraceEventDraft,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import { GENESIS_HASH, hashTraceEvent, verifyTraceChain } from "../../../src/store/index.js";
import { claimInput, T0, turnInput } from "../support/samples.js";
import type { PortContractOptions, PortHarness } from "./harness.js";

const T = "tenant-a";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function draft(phase: string, extra: Partial<TraceEventDraft> = {}): TraceEventDraft {
  return { actor: "solserver", phase, status: "completed", metadata: { phase }, ...extra };
}

/** TraceStore: sequenced, hash-chained, atomic appends that survive concurrency. */
export function traceContract(harness: PortHarness, options: PortContractOptions): void {
  describe("traces", () => {
    it("appends drafts as a SHA-256 chain starting at the genesis hash", async () => {
      const store = await harness.open();
      const events = await store.traces.append(T, "run", "tx1", [
        draft("receive", {
          actor: "solmobile",
          status: "started",
          summary: "packet in",
          ts: "2025-01-01T00:00:00.000Z",
        }),
        draft("route", { metadata: { step: 1, nested: { b: [1, 2, { z: null }], a: "x" } } }),
        draft("reply", { actor: "model", status: "warning" }),
      ]);
      expect(events.map((e) => e.seq)).toEqual([0, 1, 2]);
      expect(events[0]?.prevHash).toBe(GENESIS_HASH);
      expect(events[1]?.prevHash).toBe(events[0]?.hash);
      expect(events[0]).toMatchObject({ traceRunId: "run", transmissionId: "tx1", summary: "packet in" });
      expect(events[0]?.ts).toBe("2025-01-01T00:00:00.000Z");
      // Without a ts in the draft the store stamps it from its clock.
      expect(events[1]?.ts).toBe(T0);
      expect("summary" in (events[1] as TraceEvent)).toBe(false);
      for (const event of events) expect(event.hash).toBe(hashTraceEvent(event));
      expect(verifyTraceChain(events)).toBe(true);
      expect(await store.traces.get(T, "run")).toEqual(events);
    });

    it("serves events whose plain JSON without hash is the hashed text (keys sorted at every depth)", async () => {
      const store = await harness.open();
      // Keys of different lengths out of order: jsonb would hand them back shortest first.
      const metadata = { zeta: 1, a: { longer_key: [{ y: 2, b: 1 }], k: "é" }, mid: null };
      const appended = await store.traces.append(T, "plain", "tx1", [
        draft("route", { metadata, summary: "s" }),
        draft("reply", { metadata: { beta: true, al: 0.5 } }),
      ]);
      const read = await store.traces.get(T, "plain");
      for (const events of [appended, read]) {
        for (const { hash, ...rest } of events) {
          expect(sha256(rest.prevHash + JSON.stringify(rest))).toBe(hash);
        }
      }
      expect(Object.keys(read[0] as TraceEvent)).toEqual([...Object.keys(read[0] as TraceEvent)].sort());
    });

    it("continues the chain across appends and keeps runs apart", async () => {
      const store = await harness.open();
      const first = await store.traces.append(T, "run", null, [draft("a")]);
      await store.traces.append(T, "other", null, [draft("x"), draft("y")]);
      const second = await store.traces.append(T, "run", null, [draft("b"), draft("c")]);
      expect(second.map((e) => e.seq)).toEqual([1, 2]);
      expect(second[0]?.prevHash).toBe(first[0]?.hash);
      const run = await store.traces.get(T, "run");
      expect(run.map((e) => e.phase)).toEqual(["a", "b", "c"]);
      expect(run[0]?.transmissionId).toBeNull();
      expect(verifyTraceChain(run)).toBe(true);
      expect(verifyTraceChain(await store.traces.get(T, "other"))).toBe(true);
      expect(await store.traces.append(T, "run", null, [])).toEqual([]);
      expect(await store.traces.get(T, "missing")).toEqual([]);
    });

    it("a stored chain detects tampering", async () => {
      const store = await harness.open();
      await store.traces.append(T, "run", null, [draft("a"), draft("b"), draft("c")]);
      const run = await store.traces.get(T, "run");
      const [a, b, c] = run as [TraceEvent, TraceEvent, TraceEvent];
      expect(verifyTraceChain([a, { ...b, summary: "edited" }, c])).toBe(false);
      expect(verifyTraceChain([a, { ...b, metadata: { phase: "B" } }, c])).toBe(false);
      expect(verifyTraceChain([a, c])).toBe(false);
      expect(verifyTraceChain([b, c])).toBe(false);
      expect(verifyTraceChain([a, b])).toBe(true);
    });

    it("parallel appends to one run form one gap-free chain", async () => {
      const stores = options.sharedUrl
        ? await Promise.all([harness.open(), harness.open()])
        : [await harness.open()];
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          stores[i % stores.length]!.traces.append(T, "busy", null, [draft(`w${i}-1`), draft(`w${i}-2`)]),
        ),
      );
      const run = await stores[0]!.traces.get(T, "busy");
      expect(run.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i));
      expect(verifyTraceChain(run)).toBe(true);
      // Each append's two drafts stay adjacent: appends are atomic.
      for (let i = 0; i < run.length; i += 2) {
        expect(run[i + 1]?.phase).toBe(run[i]?.phase.replace(/-1$/, "-2"));
      }
    });

    it("parallel appends to many runs of one tenant (two stores on one database) form one anchor chain", async () => {
      const stores = options.sharedUrl
        ? await Promise.all([harness.open(), harness.open()])
        : [await harness.open()];
      await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          stores[i % stores.length]!.traces.append("tenant-anchored", `run-${i % 6}`, null, [draft(`a${i}`)]),
        ),
      );
      const anchors = await stores[0]!.traces.anchors("tenant-anchored");
      expect(anchors.map((a) => a.tenantSeq)).toEqual(Array.from({ length: 24 }, (_, i) => i));
      expect(findAnchorChainBreak(anchors)).toBeNull();
      for (let r = 0; r < 6; r++) {
        const run = await stores[0]!.traces.get("tenant-anchored", `run-${r}`);
        const own = await stores[0]!.traces.anchors("tenant-anchored", `run-${r}`);
        expect(own).toHaveLength(4);
        expect(checkAnchoredRun(run, own)).toBeNull();
        // Recomputed from zero without its last event, the run no longer matches its anchors.
        expect(checkAnchoredRun(run.slice(0, -1), own)).toBe("run_truncated");
      }
      expect(await stores[0]!.traces.anchors("tenant-other")).toEqual([]);
    });

    it("turn commits and plain appends racing from two stores form one anchor chain", async () => {
      const stores = options.sharedUrl
        ? await Promise.all([harness.open(), harness.open()])
        : [await harness.open()];
      const tenant = "tenant-turns";
      // Ids that JSON must escape: an anchor's hash covers the run id's JSON text, which PostgreSQL
      // writes itself for a turn's first commit (migration v24).
      const odd = ['run "quoted"', "run\\back", "run\nline\u0001\u007f", "run é ✓ 😀 \u2028"];
      const runs = Array.from({ length: 12 }, (_, i) => `${odd[i % odd.length]} ${i}`);
      for (const [i, run] of runs.entries()) {
        const store = stores[i % stores.length]!;
        await store.transmissions.claim(
          claimInput(tenant, `r${i}`, { threadId: `thread-${i}`, traceRunId: run }),
        );
        await store.transmissions.setStatus(tenant, `tx-r${i}`, "queued", "sending", T0);
      }
      const results = await Promise.all(
        runs.flatMap((run, i) => {
          const store = stores[i % stores.length]!;
          const trace = { traceRunId: run, drafts: [draft("route"), draft("respond")], expectEmptyRun: true };
          return [
            store
              .commitTurn(turnInput(tenant, `r${i}`, i, { threadId: `thread-${i}`, trace }))
              .then((r) => r.ok),
            store.traces.append(tenant, `plain-${i % 3}`, null, [draft(`p${i}`)]).then(() => true),
          ];
        }),
      );
      expect(results.every((ok) => ok)).toBe(true);
      const anchors = await stores[0]!.traces.anchors(tenant);
      expect(anchors.map((a) => a.tenantSeq)).toEqual(Array.from({ length: 24 }, (_, i) => i));
      expect(findAnchorChainBreak(anchors)).toBeNull();
      for (const run of [...runs, "plain-0", "plain-1", "plain-2"]) {
        const events = await stores[0]!.traces.get(tenant, run);
        expect(events.length).toBe(run.startsWith("plain-") ? 4 : 2);
        expect(checkAnchoredRun(events, await stores[0]!.traces.anchors(tenant, run))).toBeNull();
      }
    });

    it("stores large appends in one go", async () => {
      const store = await harness.open();
      const drafts = Array.from({ length: 450 }, (_, i) => draft(`p${i}`));
      await store.traces.append(T, "big", null, drafts);
      const run = await store.traces.get(T, "big");
      expect(run).toHaveLength(450);
      expect(verifyTraceChain(run)).toBe(true);
    });

    it("reads a run in pages: the events after afterSeq, at most limit, in seq order", async () => {
      const store = await harness.open();
      await store.traces.append(
        T,
        "paged",
        null,
        Array.from({ length: 7 }, (_, i) => draft(`p${i}`)),
      );
      const seqs = async (page: { afterSeq?: number; limit?: number }) =>
        (await store.traces.get(T, "paged", page)).map((e) => e.seq);
      expect(await seqs({ limit: 3 })).toEqual([0, 1, 2]);
      expect(await seqs({ afterSeq: 2, limit: 3 })).toEqual([3, 4, 5]);
      expect(await seqs({ afterSeq: 5, limit: 3 })).toEqual([6]);
      expect(await seqs({ afterSeq: 6 })).toEqual([]);
      expect(await seqs({ afterSeq: -1 })).toEqual([0, 1, 2, 3, 4, 5, 6]);
      // Pages put back together are the whole chain.
      const pages = [
        ...(await store.traces.get(T, "paged", { limit: 4 })),
        ...(await store.traces.get(T, "paged", { afterSeq: 3, limit: 4 })),
      ];
      expect(pages).toEqual(await store.traces.get(T, "paged"));
      expect(verifyTraceChain(pages)).toBe(true);
      for (const page of [{ limit: 0 }, { limit: 1.5 }, { afterSeq: -2 }, { afterSeq: Number.NaN }]) {
        await expect(store.traces.get(T, "paged", page)).rejects.toMatchObject({ code: "invalid_input" });
      }
    });
  });
}
