import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THREAD_TITLE_MAX } from "../../../src/store/repos/thread-store.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

const KEY_A = "key-threads-a";
const KEY_B = "key-threads-b";
const asA = { authorization: `Bearer ${KEY_A}` };
const asB = { authorization: `Bearer ${KEY_B}` };

const LONG_OPENING =
  "Could you help me plan a three week walking trip across the north of Spain next spring, with rest days?";

/** `/v1/threads` list, messages and delete over HTTP, with two tenants (api.md §3 "Threads"). */
export function threadRoutesSuite(backend: Backend): void {
  describe(`threads on ${backend}`, () => {
    let srv: TestServer;
    const turn = async (threadId: string, requestId: string, message: string, as = asA) => {
      const res = await srv.request("POST", "/v1/chat", { requestId, threadId, message }, as);
      expect(res.status, res.text).toBe(200);
      return res.json;
    };
    const threadIds = async (query = "", as = asA): Promise<string[]> => {
      const res = await srv.request("GET", `/v1/threads${query}`, undefined, as);
      expect(res.status, res.text).toBe(200);
      return res.json.threads.map((t: { threadId: string }) => t.threadId);
    };

    beforeAll(async () => {
      srv = await startTestServer({ backend, env: { SOL_API_KEYS: `alpha:${KEY_A},beta:${KEY_B}` } });
      await turn("th-a", "a-1", "Let's plan a trip.");
      await turn("th-a", "a-2", "What should I pack?");
      await turn("th-long", "l-1", LONG_OPENING);
      await turn("th-b", "b-1", "Remind me about the dentist.");
      await turn("th-beta", "beta-1", "A thread of the other tenant.", asB);
    });
    afterAll(async () => {
      await srv.close();
    });

    it("lists the tenant's threads newest first, with counts, mode and a title from the first user message", async () => {
      const res = await srv.request("GET", "/v1/threads", undefined, asA);
      expect(res.status).toBe(200);
      const threads = res.json.threads;
      expect(threads.map((t: { threadId: string }) => t.threadId)).toEqual(["th-b", "th-long", "th-a"]);
      const a = threads[2];
      expect(a.messageCount).toBe(4);
      expect(a.title).toBe("Let's plan a trip.");
      expect(typeof a.lastModeLabel).toBe("string");
      expect(Date.parse(a.updatedAt)).not.toBeNaN();
      expect(Date.parse(threads[0].updatedAt)).toBeGreaterThanOrEqual(Date.parse(a.updatedAt));
      const long = threads[1];
      expect(long.title.length).toBeLessThanOrEqual(THREAD_TITLE_MAX);
      expect(long.title.endsWith("…")).toBe(true);
      expect(LONG_OPENING.startsWith(long.title.slice(0, -1))).toBe(true);
      // A new turn on the oldest thread moves it to the front.
      await turn("th-a", "a-3", "And the weather?");
      expect(await threadIds("", asA)).toEqual(["th-a", "th-b", "th-long"]);
    });

    it("pages with limit and after (the last threadId of the previous page)", async () => {
      expect(await threadIds("?limit=1")).toEqual(["th-a"]);
      expect(await threadIds("?limit=1&after=th-a")).toEqual(["th-b"]);
      expect(await threadIds("?limit=2&after=th-b")).toEqual(["th-long"]);
      expect(await threadIds("?after=th-long")).toEqual([]);
      expect(await threadIds("?after=th-beta")).toEqual([]);
      expect((await srv.request("GET", "/v1/threads?limit=0", undefined, asA)).status).toBe(400);
      expect((await srv.request("GET", "/v1/threads?limit=101", undefined, asA)).status).toBe(400);
    });

    it("never lists another tenant's threads", async () => {
      expect(await threadIds("", asB)).toEqual(["th-beta"]);
    });

    it("reads a thread's messages in order, with seq, and pages with afterSeq", async () => {
      const res = await srv.request("GET", "/v1/threads/th-a/messages", undefined, asA);
      expect(res.status).toBe(200);
      const messages = res.json.messages;
      expect(messages.map((m: { seq: number }) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(messages.map((m: { role: string }) => m.role)).toEqual([
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
      ]);
      expect(messages[0].content).toBe("Let's plan a trip.");
      expect(messages[2].content).toBe("What should I pack?");
      const page = await srv.request("GET", "/v1/threads/th-a/messages?afterSeq=2&limit=2", undefined, asA);
      expect(page.json.messages.map((m: { seq: number }) => m.seq)).toEqual([3, 4]);
      expect(page.json.messages[0].messageId).toBe(messages[2].messageId);
      const past = await srv.request("GET", "/v1/threads/th-a/messages?afterSeq=6", undefined, asA);
      expect(past.status).toBe(200);
      expect(past.json.messages).toEqual([]);
    });

    it("answers 404 for an unknown thread and for another tenant's thread", async () => {
      expect((await srv.request("GET", "/v1/threads/nope/messages", undefined, asA)).status).toBe(404);
      const foreign = await srv.request("GET", "/v1/threads/th-beta/messages", undefined, asA);
      expect(foreign.status).toBe(404);
      expect(foreign.json.error.code).toBe("not_found");
      expect((await srv.request("DELETE", "/v1/threads/th-beta", undefined, asA)).status).toBe(404);
      const still = await srv.request("GET", "/v1/threads/th-beta/messages", undefined, asB);
      expect(still.json.messages).toHaveLength(2);
    });

    it("DELETE removes the thread's messages and memento; other threads stay", async () => {
      expect((await srv.request("GET", "/v1/threads/th-b/memento", undefined, asA)).status).toBe(200);
      const del = await srv.request("DELETE", "/v1/threads/th-b", undefined, asA);
      expect(del.status).toBe(204);
      expect(del.text).toBe("");
      expect((await srv.request("GET", "/v1/threads/th-b/messages", undefined, asA)).status).toBe(404);
      expect((await srv.request("GET", "/v1/threads/th-b/memento", undefined, asA)).status).toBe(404);
      expect(await threadIds()).toEqual(["th-a", "th-long"]);
      expect((await srv.request("DELETE", "/v1/threads/th-b", undefined, asA)).status).toBe(404);
      const a = await srv.request("GET", "/v1/threads/th-a/messages", undefined, asA);
      expect(a.json.messages).toHaveLength(6);
    });

    it("a deleted thread id starts afresh: count, title and the turn's window hold only new messages", async () => {
      await turn("th-b", "b-2", "A new start.");
      const [first] = (await srv.request("GET", "/v1/threads?limit=1", undefined, asA)).json.threads;
      expect(first).toMatchObject({ threadId: "th-b", messageCount: 2, title: "A new start." });
      const messages = (await srv.request("GET", "/v1/threads/th-b/messages", undefined, asA)).json.messages;
      expect(messages.map((m: { content: string }) => m.content)[0]).toBe("A new start.");
      expect(messages).toHaveLength(2);
    });

    it("a thread that holds only a memento can be deleted", async () => {
      const memento = (await srv.request("GET", "/v1/threads/th-a/memento", undefined, asA)).json;
      const put = await srv.request(
        "PUT",
        "/v1/threads/th-m/memento",
        { ...memento, threadId: "th-m" },
        {
          ...asA,
          "if-none-match": "*",
        },
      );
      expect(put.status, put.text).toBe(200);
      expect((await srv.request("GET", "/v1/threads/th-m/messages", undefined, asA)).json.messages).toEqual(
        [],
      );
      expect((await srv.request("DELETE", "/v1/threads/th-m", undefined, asA)).status).toBe(204);
      expect((await srv.request("GET", "/v1/threads/th-m/memento", undefined, asA)).status).toBe(404);
    });
  });
}
