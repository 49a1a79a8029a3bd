import { ChatResponse, Memory, MemoryList } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleMemento } from "../../store/support/samples.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

const asA = { authorization: "Bearer key-mem-a" };
const asB = { authorization: "Bearer key-mem-b" };

/** `/v1/memories`, the retrieval phase of a turn and the save_memory action, over HTTP. */
export function memorySuite(backend: Backend): void {
  describe(`memories on ${backend}`, () => {
    let srv: TestServer;
    let n = 0;
    beforeAll(async () => {
      srv = await startTestServer({ backend, env: { SOL_API_KEYS: "alpha:key-mem-a,beta:key-mem-b" } });
    });
    afterAll(async () => {
      await srv.close();
    });

    const save = (body: Record<string, unknown>, headers = asA) =>
      srv.request("POST", "/v1/memories", { requestId: `mem-req-${++n}`, ...body }, headers);
    const turn = async (threadId: string, message: string, headers = asA, extra = {}) => {
      const res = await srv.request(
        "POST",
        "/v1/chat",
        { requestId: `mem-turn-${++n}`, threadId, message, ...extra },
        headers,
      );
      expect(res.status).toBe(200);
      return ChatResponse.parse(res.json);
    };
    const retrievedIds = (response: ChatResponse) =>
      response.retrieval?.memories.map((m) => m.memoryId) ?? [];
    const search = async (q: string, headers = asA) => {
      const res = await srv.request("GET", `/v1/memories?q=${encodeURIComponent(q)}`, undefined, headers);
      expect(res.status).toBe(200);
      return MemoryList.parse(res.json).memories;
    };

    it("creates a memory once per requestId, deriving its summary", async () => {
      const body = {
        requestId: "idem-1",
        text: "  Ana's  birthday is on 3 May.\nShe likes tulips.",
        domainFlags: ["family"],
      };
      const created = await srv.request("POST", "/v1/memories", body, asA);
      expect(created.status).toBe(201);
      const memory = Memory.parse(created.json.memory);
      expect(memory).toMatchObject({
        summary: "Ana's birthday is on 3 May. She likes tulips.",
        source: "user",
        domainFlags: ["family"],
      });
      expect(memory.threadId).toBeUndefined();
      const replay = await srv.request("POST", "/v1/memories", body, asA);
      expect(replay.status).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.json.memory).toEqual(created.json.memory);
      const conflict = await srv.request("POST", "/v1/memories", { ...body, text: "other" }, asA);
      expect(conflict.status).toBe(409);
      expect(conflict.json.error.code).toBe("idempotency_conflict");
      const got = await srv.request("GET", `/v1/memories/${memory.memoryId}`, undefined, asA);
      expect(got.json).toEqual(created.json.memory);
    });

    it("answers 400 naming the bad fields", async () => {
      const bad = await srv.request(
        "POST",
        "/v1/memories",
        { requestId: "r", text: "", source: "robot" },
        asA,
      );
      expect(bad.status).toBe(400);
      const paths = JSON.stringify(bad.json.error);
      expect(paths).toContain("text");
      expect(paths).toContain("source");
      for (const q of ["limit=0", "limit=101", "limit=abc"]) {
        expect((await srv.request("GET", `/v1/memories?${q}`, undefined, asA)).status).toBe(400);
      }
    });

    it("lists newest first in pages, and hides every memory from another tenant", async () => {
      const ids: string[] = [];
      for (const text of ["page one", "page two", "page three"]) {
        ids.push((await save({ text, domainFlags: ["paging"] }, asB)).json.memory.memoryId);
      }
      const first = await srv.request("GET", "/v1/memories?domain=paging&limit=2", undefined, asB);
      expect(first.json.memories.map((m: Memory) => m.memoryId)).toEqual([ids[2], ids[1]]);
      const next = await srv.request(
        "GET",
        `/v1/memories?domain=paging&limit=2&after=${ids[1]}`,
        undefined,
        asB,
      );
      expect(next.json.memories.map((m: Memory) => m.memoryId)).toEqual([ids[0]]);
      expect((await srv.request("GET", "/v1/memories?domain=paging", undefined, asA)).json.memories).toEqual(
        [],
      );
      expect((await srv.request("GET", `/v1/memories/${ids[0]}`, undefined, asA)).status).toBe(404);
      expect((await srv.request("DELETE", `/v1/memories/${ids[0]}`, undefined, asA)).status).toBe(404);
      expect((await srv.request("GET", `/v1/memories/${ids[0]}`, undefined, asB)).status).toBe(200);
    });

    it("retrieves a memory saved in thread A in a turn of thread B, traced; never after DELETE or for another tenant", async () => {
      const saved = await save({
        text: "My sister Ana lives in Lisbon and collects ceramics.",
        threadId: "mem-thread-a",
      });
      const id = saved.json.memory.memoryId as string;
      await save({ text: "The dentist appointment moved to Friday.", threadId: "mem-thread-a" });
      const ranked = await search("What does Ana collect?");
      expect(ranked[0]).toMatchObject({ memoryId: id });
      expect(ranked[0]?.score).toBeGreaterThan(0);

      const response = await turn("mem-thread-b", "What gift would suit Ana's ceramics collection?");
      expect(retrievedIds(response)[0]).toBe(id);
      expect(response.retrieval?.memories[0]).toMatchObject({ summary: saved.json.memory.summary });
      expect(response.retrieval?.memories[0]?.score).toBeGreaterThan(0);
      const trace = await srv.request("GET", `/v1/traces/${response.trace.traceRunId}`, undefined, asA);
      const events = trace.json.events as {
        phase: string;
        metadata: { memories?: { memoryId: string }[] };
      }[];
      const named = events.filter(
        (e) => e.phase === "retrieval" && e.metadata.memories?.some((m) => m.memoryId === id),
      );
      expect(named).toHaveLength(1);

      const other = await turn("mem-thread-b", "What gift would suit Ana's ceramics collection?", asB);
      expect(retrievedIds(other)).toEqual([]);
      const off = await turn("mem-thread-c", "Ana ceramics gift?", asA, { thread_context_mode: "off" });
      expect(off.retrieval).toEqual({ memories: [] });

      expect((await srv.request("DELETE", `/v1/memories/${id}`, undefined, asA)).status).toBe(204);
      expect((await srv.request("GET", `/v1/memories/${id}`, undefined, asA)).status).toBe(404);
      expect((await search("Ana ceramics Lisbon")).map((m) => m.memoryId)).not.toContain(id);
      const after = await turn("mem-thread-d", "What gift would suit Ana's ceramics collection?");
      expect(retrievedIds(after)).not.toContain(id);
    });

    it("retrieves another thread's memento as thread:<id>, never the turn's own thread", async () => {
      const memento = {
        ...sampleMemento("mem-boat", "selling the sailboat"),
        decisions: ["list the sailboat in June"],
      };
      const put = await srv.request("PUT", "/v1/threads/mem-boat/memento", memento, {
        ...asA,
        "if-none-match": "*",
      });
      expect(put.status).toBe(200);
      const elsewhere = await turn("mem-harbour", "Any news about the sailboat listing?");
      const hit = elsewhere.retrieval?.memories.find((m) => m.memoryId === "thread:mem-boat");
      expect(hit?.summary).toBe("Thread mem-boat: selling the sailboat. Decided: list the sailboat in June.");
      const own = await turn("mem-boat", "Any news about the sailboat listing?");
      expect(retrievedIds(own)).not.toContain("thread:mem-boat");
    });

    it("saves a proposed save_memory only after Approve; Not now stores nothing", async () => {
      const fact = "my passport expires in March 2031";
      const proposal = async (threadId: string) => {
        const response = await turn(threadId, `Please remember that ${fact}.`);
        const action = response.actions.find((a) => a.action_kind === "save_memory");
        expect(action?.action_summary_bullets).toEqual([`Remember: ${fact}`]);
        return action!;
      };
      const deferred = await proposal("mem-save-1");
      const defer = await srv.request("POST", `/v1/actions/${deferred.action_id}/defer`, {}, asA);
      expect(defer.json.status).toBe("deferred");
      expect(await search("passport expires")).toEqual([]);

      const approved = await proposal("mem-save-2");
      expect(await search("passport expires")).toEqual([]);
      const run = await srv.request(
        "POST",
        "/v1/actions/execute",
        { action_id: approved.action_id, request_id: "approve-mem" },
        asA,
      );
      expect(run.json.status).toBe("succeeded");
      const found = await search("passport expires");
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ text: fact, source: "assistant", threadId: "mem-save-2" });
      expect(await search("passport expires", asB)).toEqual([]);
    });
  });
}
