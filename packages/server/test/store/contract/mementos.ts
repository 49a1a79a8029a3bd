import { createArcRanker, isSolError, ThreadMementoV02 } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { sampleMemento, T0 } from "../support/samples.js";
import type { PortContractOptions, PortHarness } from "./harness.js";

const T = "tenant-a";
const LATER = "2025-03-02T08:30:00.000Z";

/** MementoStore: compare-and-swap with versions that step by one. */
export function mementoContract(harness: PortHarness, options: PortContractOptions): void {
  describe("mementos", () => {
    it("round-trips a memento exactly and starts at version 1", async () => {
      const store = await harness.open();
      const memento = sampleMemento("th");
      expect(await store.mementos.get(T, "th")).toBeNull();
      expect(await store.mementos.put(T, "th", memento, null, T0)).toEqual({ ok: true, version: 1 });
      expect(await store.mementos.get(T, "th")).toEqual({
        memento,
        version: 1,
        turnsSincePersist: 0,
        updatedAt: T0,
      });
    });

    it("compare-and-swap: versions step by one; stale or missing expectations are rejected", async () => {
      const store = await harness.open();
      const v1 = sampleMemento("th", "first");
      const v2 = sampleMemento("th", "second");
      expect(await store.mementos.put(T, "th", v1, 3, T0)).toEqual({ ok: false, currentVersion: null });
      expect(await store.mementos.put(T, "th", v1, null, T0)).toEqual({ ok: true, version: 1 });
      expect(await store.mementos.put(T, "th", v2, null, T0)).toEqual({ ok: false, currentVersion: 1 });
      expect(await store.mementos.put(T, "th", v2, 1, LATER)).toEqual({ ok: true, version: 2 });
      expect(await store.mementos.put(T, "th", v1, 1, LATER)).toEqual({ ok: false, currentVersion: 2 });
      expect(await store.mementos.put(T, "th", v1, 3, LATER)).toEqual({ ok: false, currentVersion: 2 });
      expect(await store.mementos.get(T, "th")).toEqual({
        memento: v2,
        version: 2,
        turnsSincePersist: 0,
        updatedAt: LATER,
      });
      expect(await store.mementos.put(T, "th", v1, 2, LATER)).toEqual({ ok: true, version: 3 });
    });

    it("an expected version no row can hold (huge, fractional, negative, NaN) loses like a stale one", async () => {
      const store = await harness.open();
      await store.mementos.put(T, "th", sampleMemento("th"), null, T0);
      for (const expected of [2 ** 31, 1e30, Number.MAX_SAFE_INTEGER + 2, 1.5, -1, Number.NaN]) {
        expect(
          await store.mementos.put(T, "th", sampleMemento("th", "x"), expected, LATER),
          String(expected),
        ).toEqual({
          ok: false,
          currentVersion: 1,
        });
      }
      expect((await store.mementos.get(T, "th"))?.version).toBe(1);
    });

    it("of many parallel writers expecting the same version exactly one wins", async () => {
      const stores = options.sharedUrl
        ? await Promise.all([harness.open(), harness.open()])
        : [await harness.open()];
      const first = stores[0]!;
      await first.mementos.put(T, "th", sampleMemento("th", "base"), null, T0);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          stores[i % stores.length]!.mementos.put(T, "th", sampleMemento("th", `writer ${i}`), 1, LATER),
        ),
      );
      const winners = results.flatMap((result, i) => (result.ok ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(results.filter((result) => !result.ok)).toEqual(
        Array.from({ length: 11 }, () => ({ ok: false, currentVersion: 2 })),
      );
      expect((await first.mementos.get(T, "th"))?.memento.arc).toBe(`writer ${winners[0]}`);
    });

    it("of many parallel first writers (expected null) exactly one wins", async () => {
      const store = await harness.open();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.mementos.put(T, "th", sampleMemento("th", `w${i}`), null, T0),
        ),
      );
      expect(results.filter((result) => result.ok)).toEqual([{ ok: true, version: 1 }]);
    });

    it("reads signals stamped with an offset (accepted by earlier versions) back in UTC", async () => {
      const store = await harness.open();
      const base = sampleMemento("th-offset");
      const items = base.signals?.items ?? [];
      const old = { ...base, signals: { updatedAt: "2025-03-01T12:00:00+02:00", items } };
      await store.mementos.put(T, "th-offset", old, null, T0);
      const read = await store.mementos.get(T, "th-offset");
      expect(read?.memento.signals).toEqual({ updatedAt: "2025-03-01T10:00:00.000Z", items });
      expect(ThreadMementoV02.safeParse(read?.memento).success).toBe(true);
      expect({ ...read?.memento, signals: undefined }).toEqual({ ...old, signals: undefined });
    });

    it("rejects a memento holding a NUL character", async () => {
      const store = await harness.open();
      const bad = { ...sampleMemento("th"), arc: "bad\u0000arc" };
      const error = await store.mementos.put(T, "th", bad, null, T0).catch((caught: unknown) => caught);
      expect(isSolError(error) && error.code).toBe("invalid_input");
      expect(await store.mementos.get(T, "th")).toBeNull();
    });

    it("lists other threads' mementos newest first (ties by thread id), and their arcs alone", async () => {
      const store = await harness.open();
      const at = (minute: number) => `2025-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
      await store.mementos.put(T, "th-b", sampleMemento("th-b", "second oldest"), null, at(2));
      await store.mementos.put(T, "th-a", sampleMemento("th-a", "oldest"), null, at(1));
      await store.mementos.put(T, "th-d", sampleMemento("th-d", "tied, d"), null, at(5));
      await store.mementos.put(T, "th-c", sampleMemento("th-c", "tied, c"), null, at(5));
      await store.mementos.put(T, "th-self", sampleMemento("th-self", "the turn's own"), null, at(9));
      await store.mementos.put("tenant-b", "th-x", sampleMemento("th-x", "another tenant"), null, at(9));

      const options = { excludeThreadId: "th-self", limit: 3 };
      const full = await store.mementos.listRecent(T, options);
      expect(full.map((s) => s.memento.threadId)).toEqual(["th-c", "th-d", "th-b"]);
      const arcs = await store.mementos.listRecentArcs(T, options);
      const { active, parked, decisions, next } = sampleMemento("th-c");
      expect(arcs[0]).toEqual({
        threadId: "th-c",
        arc: "tied, c",
        active,
        parked,
        decisions,
        next,
        updatedAt: at(5),
      });
      expect(arcs.map((a) => a.threadId)).toEqual(["th-c", "th-d", "th-b"]);
      expect(arcs.every((a) => !("affect" in a) && !("signals" in a))).toBe(true);

      expect((await store.mementos.listRecentArcs(T, { limit: 10 })).map((a) => a.threadId)).toEqual([
        "th-self",
        "th-c",
        "th-d",
        "th-b",
        "th-a",
      ]);
      expect(await store.mementos.listRecentArcs(T, { excludeThreadId: "th-self", limit: 0 })).toEqual([]);
      expect(await store.mementos.listRecentArcs("tenant-none", { limit: 5 })).toEqual([]);
    });

    it("ranks other threads' arcs where they are: the matching ones, as core ranks the listed arcs", async () => {
      const store = await harness.open();
      const at = (minute: number) => `2025-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
      await store.mementos.put(
        T,
        "th-dentist",
        sampleMemento("th-dentist", "booking the dentist"),
        null,
        at(1),
      );
      await store.mementos.put(T, "th-garden", sampleMemento("th-garden", "planting tomatoes"), null, at(2));
      await store.mementos.put(
        T,
        "th-move",
        sampleMemento("th-move", "moving flats, dentist nearby"),
        null,
        at(3),
      );
      await store.mementos.put(T, "th-self", sampleMemento("th-self", "the dentist again"), null, at(4));
      await store.mementos.put("tenant-b", "th-x", sampleMemento("th-x", "dentist elsewhere"), null, at(9));
      const options = { excludeThreadId: "th-self", limit: 10 };
      const query = "When is the dentist?";

      const ranked = await store.mementos.rankRecentArcs(T, { ...options, query });
      const expected = createArcRanker().rank(T, await store.mementos.listRecentArcs(T, options), query);
      expect(ranked).toEqual(expected);
      expect(ranked.map((r) => r.threadId)).toEqual(["th-move", "th-dentist"]);
      expect(ranked[1]).toEqual({
        threadId: "th-dentist",
        summary: "Thread th-dentist: booking the dentist. Decided: ship in April.",
        score: expect.any(Number),
      });
      expect(ranked.every((r) => r.score > 0)).toBe(true);

      // A memento that changes is ranked by its new words, never by counts kept from the old ones.
      const moved = await store.mementos.get(T, "th-move");
      const changed = { ...sampleMemento("th-move", "moving flats"), next: ["call the dentist"] };
      await store.mementos.put(T, "th-move", changed, moved?.version ?? null, at(5));
      const again = await store.mementos.rankRecentArcs(T, { ...options, query });
      expect(again).toEqual(
        createArcRanker().rank(T, await store.mementos.listRecentArcs(T, options), query),
      );
      expect(again.find((r) => r.threadId === "th-move")?.summary).toBe(
        "Thread th-move: moving flats. Decided: ship in April.",
      );

      expect(await store.mementos.rankRecentArcs(T, { ...options, query: "the and of" })).toEqual([]);
      expect(await store.mementos.rankRecentArcs(T, { ...options, limit: 0, query })).toEqual([]);
      expect(await store.mementos.rankRecentArcs("tenant-none", { limit: 5, query })).toEqual([]);
    });
  });
}
