import type { MemoryStore, NewMemory, ScoredMemory } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { T0 } from "../support/samples.js";

/** What differs between MemoryStore backends. */
export interface MemoryContractOptions {
  /** The backend stems words ("selling" finds "sell"); the in-memory reference does not. */
  readonly stems: boolean;
}

const A = "tenant-a";
const B = "tenant-b";
let counter = 0;

function memory(text: string, overrides: Partial<NewMemory> = {}): NewMemory {
  counter += 1;
  const at = new Date(Date.parse(T0) + counter * 1000).toISOString();
  return {
    tenantId: A,
    memoryId: `mem-${counter}`,
    requestId: `req-${counter}`,
    bodyHash: `hash-${counter}`,
    text,
    summary: text.slice(0, 40),
    domainFlags: [],
    threadId: null,
    source: "user",
    createdAt: at,
    ...overrides,
  };
}

async function saved(store: MemoryStore, input: NewMemory): Promise<string> {
  const result = await store.save(input);
  if (!result.ok) throw new Error(`save refused: ${result.reason}`);
  return result.memory.memoryId;
}

const ids = (hits: readonly ScoredMemory[]) => hits.map((h) => h.memory.memoryId);

/** The behaviour every MemoryStore must show; `open` returns an empty store per test. */
export function memoryStoreContract(open: () => Promise<MemoryStore>, options: MemoryContractOptions): void {
  describe("memories", () => {
    it("saves once per requestId: the same body replays, another body conflicts", async () => {
      const store = await open();
      const input = memory("Allergic to peanuts", { domainFlags: ["health"], threadId: "t1" });
      const first = await store.save(input);
      expect(first).toMatchObject({ ok: true, created: true });
      if (!first.ok) return;
      expect(first.memory).toEqual({
        tenantId: A,
        memoryId: input.memoryId,
        text: "Allergic to peanuts",
        summary: input.summary,
        domainFlags: ["health"],
        threadId: "t1",
        source: "user",
        createdAt: input.createdAt,
        updatedAt: input.createdAt,
      });
      const replay = await store.save({ ...input, memoryId: "another-id" });
      expect(replay).toEqual({ ok: true, memory: first.memory, created: false });
      expect(await store.save({ ...input, memoryId: "x", bodyHash: "other" })).toEqual({
        ok: false,
        reason: "idempotency_conflict",
      });
      expect(await store.get(A, "another-id")).toBeNull();
      // The same requestId in another tenant is another request.
      expect(await store.save({ ...input, tenantId: B, memoryId: "b-copy" })).toMatchObject({
        created: true,
      });
    });

    it("gets and deletes only within the tenant", async () => {
      const store = await open();
      const id = await saved(store, memory("Sister's birthday is in June"));
      expect(await store.get(B, id)).toBeNull();
      expect(await store.delete(B, id)).toBe(false);
      expect((await store.get(A, id))?.text).toBe("Sister's birthday is in June");
      expect(await store.delete(A, id)).toBe(true);
      expect(await store.get(A, id)).toBeNull();
      expect(await store.delete(A, id)).toBe(false);
    });

    it("lists newest first, by domain, in pages after a cursor", async () => {
      const store = await open();
      const first = await saved(store, memory("one", { domainFlags: ["work"] }));
      const second = await saved(store, memory("two", { domainFlags: ["money", "work"] }));
      const third = await saved(store, memory("three"));
      await saved(store, memory("other tenant", { tenantId: B }));
      const texts = async (o: Parameters<MemoryStore["list"]>[1]) =>
        (await store.list(A, o)).map((m) => m.memoryId);
      expect(await texts({ limit: 10 })).toEqual([third, second, first]);
      expect(await texts({ limit: 2 })).toEqual([third, second]);
      expect(await texts({ limit: 2, after: second })).toEqual([first]);
      expect(await texts({ limit: 10, domain: "work" })).toEqual([second, first]);
      expect(await texts({ limit: 10, domain: "mon" })).toEqual([]);
      expect(await store.list("tenant-c", { limit: 10 })).toEqual([]);
    });

    it("ranks the memory that shares the message's words first, never another tenant's", async () => {
      const store = await open();
      const house = await saved(store, memory("We decided to sell the house in spring"));
      const lake = await saved(store, memory("Melanie painted a sunrise by the lake"));
      await saved(store, memory("Sell the house, paint the lake, sunrise", { tenantId: B }));
      const hits = await store.search(A, { query: "When will they sell the house?", limit: 5 });
      expect(ids(hits)).toEqual([house]);
      expect(hits[0]?.score).toBeGreaterThan(0);
      expect(hits[0]?.memory.text).toBe("We decided to sell the house in spring");
      expect(ids(await store.search(A, { query: "sunrise lake house", limit: 1 }))).toHaveLength(1);
      expect(ids(await store.search(A, { query: "sunrise lake", limit: 5 }))).toEqual([lake]);
      expect(await store.search("tenant-c", { query: "house", limit: 5 })).toEqual([]);
      expect(await store.search(A, { query: 'What did you do? "*^:', limit: 5 })).toEqual([]);
    });

    it("stems when the backend does", async () => {
      const store = await open();
      const house = await saved(store, memory("We decided to sell the house in spring"));
      const hits = ids(await store.search(A, { query: "selling houses", limit: 5 }));
      expect(hits).toEqual(options.stems ? [house] : []);
    });

    it("finds a memory by the previous memory of its thread, below the one with the words", async () => {
      const store = await open();
      const question = await saved(store, memory("Did you sell the boat?", { threadId: "t1" }));
      const answer = await saved(store, memory("Yes, last May", { threadId: "t1" }));
      await saved(store, memory("No idea at all", { threadId: "t2" }));
      expect(ids(await store.search(A, { query: "boat", limit: 5 }))).toEqual([question, answer]);
    });

    it("boosts a memory sharing the turn's domain flag and filters by domain", async () => {
      const store = await open();
      const work = await saved(store, memory("budget review friday", { domainFlags: ["work"] }));
      const money = await saved(store, memory("budget review friday", { domainFlags: ["money"] }));
      const base = { query: "budget review", limit: 2 };
      expect(ids(await store.search(A, { ...base, domainFlags: ["money"] }))).toEqual([money, work]);
      expect(ids(await store.search(A, { ...base, domainFlags: ["work"] }))).toEqual([work, money]);
      expect(ids(await store.search(A, { ...base, domain: "work" }))).toEqual([work]);
      expect(ids(await store.search(A, { ...base, domainFlags: ["work"], after: work }))).toEqual([money]);
    });

    it("never finds a deleted memory again", async () => {
      const store = await open();
      const id = await saved(store, memory("allergic to peanuts", { threadId: "t1" }));
      const next = await saved(store, memory("and to shellfish", { threadId: "t1" }));
      expect(await store.delete(A, id)).toBe(true);
      expect(ids(await store.search(A, { query: "peanuts allergic", limit: 5 }))).toEqual([next]);
      expect(await store.delete(A, next)).toBe(true);
      expect(await store.search(A, { query: "peanuts shellfish", limit: 5 })).toEqual([]);
    });
  });
}
