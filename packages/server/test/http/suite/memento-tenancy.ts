import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

const KEY_A = "key-aaaa";
const KEY_B = "key-bbbb";
const asA = { authorization: `Bearer ${KEY_A}` };
const asB = { authorization: `Bearer ${KEY_B}` };

/** Memento ETag compare-and-swap and tenant isolation over HTTP. */
export function mementoTenancySuite(backend: Backend): void {
  describe(`memento and tenants on ${backend}`, () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({ backend, env: { SOL_API_KEYS: `alpha:${KEY_A},beta:${KEY_B}` } });
    });
    afterAll(async () => {
      await srv.close();
    });

    it("needs a valid API key on /v1 routes", async () => {
      const none = await srv.request("POST", "/v1/chat", { requestId: "r", threadId: "t", message: "hi" });
      expect(none.status).toBe(401);
      expect(none.json.error.code).toBe("unauthorized");
      const bad = await srv.request("GET", "/v1/threads/t/memento", undefined, {
        authorization: "Bearer nope",
      });
      expect(bad.status).toBe(401);
      expect((await srv.request("GET", "/healthz")).status).toBe(200);
    });

    it("a percent-encoded /v1 prefix reaches the route only with a key (no way around auth)", async () => {
      // The router decodes %76 to "v": the key check must follow the matched route, not the raw URL.
      for (const path of ["/%761/models", "/%76%31/agency/counters", "/v%31/threads/t/memento"]) {
        const res = await srv.request("GET", path);
        expect(res.status, path).toBe(401);
        expect(res.json.error.code).toBe("unauthorized");
      }
      const chat = await srv.request("POST", "/%761/chat", {
        requestId: "enc-1",
        threadId: "t",
        message: "hi",
      });
      expect(chat.status).toBe(401);
      const keyed = await srv.request("GET", "/%761/models", undefined, asA);
      expect(keyed.status).toBe(200);
    });

    it("GET 404 before any turn, then ETag; PUT needs If-Match (428), rejects stale tags (412)", async () => {
      expect((await srv.request("GET", "/v1/threads/th-m/memento", undefined, asA)).status).toBe(404);
      const turn = await srv.request(
        "POST",
        "/v1/chat",
        { requestId: "m-1", threadId: "th-m", message: "Let's plan a trip." },
        asA,
      );
      expect(turn.status).toBe(200);
      const got = await srv.request("GET", "/v1/threads/th-m/memento", undefined, asA);
      expect(got.status).toBe(200);
      const etag = got.headers.get("etag");
      expect(etag).toMatch(/^"v\d+"$/);
      expect(got.json).toEqual(turn.json.threadMemento);

      const edited = { ...got.json, arc: "Trip planning, edited by the user" };
      const noMatch = await srv.request("PUT", "/v1/threads/th-m/memento", edited, asA);
      expect(noMatch.status).toBe(428);
      expect(noMatch.json.error.code).toBe("precondition_required");

      const ok = await srv.request("PUT", "/v1/threads/th-m/memento", edited, {
        ...asA,
        "if-match": etag ?? "",
      });
      expect(ok.status).toBe(200);
      const newTag = ok.headers.get("etag");
      expect(newTag).not.toBe(etag);

      const stale = await srv.request("PUT", "/v1/threads/th-m/memento", edited, {
        ...asA,
        "if-match": etag ?? "",
      });
      expect(stale.status).toBe(412);
      expect(stale.json.error.code).toBe("precondition_failed");

      const after = await srv.request("GET", "/v1/threads/th-m/memento", undefined, asA);
      expect(after.json.arc).toBe("Trip planning, edited by the user");
      expect(after.headers.get("etag")).toBe(newTag);
      // If-Match compares strongly: a weak form of the current tag does not match.
      const weak = await srv.request("PUT", "/v1/threads/th-m/memento", edited, {
        ...asA,
        "if-match": `W/${newTag}`,
      });
      expect(weak.status).toBe(412);
      // Revalidation: If-None-Match with the current tag is a 304 without a body; a stale one is a 200.
      const fresh = await srv.request("GET", "/v1/threads/th-m/memento", undefined, {
        ...asA,
        "if-none-match": newTag ?? "",
      });
      expect(fresh.status).toBe(304);
      expect(fresh.headers.get("etag")).toBe(newTag);
      // No Content-Length of a serialized null: a 304 may only carry the length a 200 would have.
      expect(fresh.headers.get("content-length")).toBeNull();
      expect(fresh.text).toBe("");
      const changed = await srv.request("GET", "/v1/threads/th-m/memento", undefined, {
        ...asA,
        "if-none-match": etag ?? "",
      });
      expect(changed.status).toBe(200);

      // `*` matches whatever version is current; a list matches when one of its tags is current.
      const star = await srv.request(
        "PUT",
        "/v1/threads/th-m/memento",
        { ...edited, arc: "Star write" },
        {
          ...asA,
          "if-match": "*",
        },
      );
      expect(star.status).toBe(200);
      const starTag = star.headers.get("etag");
      expect(starTag).not.toBe(newTag);
      const listed = await srv.request(
        "PUT",
        "/v1/threads/th-m/memento",
        { ...edited, arc: "List write" },
        {
          ...asA,
          "if-match": `${etag}, ${starTag}`,
        },
      );
      expect(listed.status).toBe(200);
      const staleList = await srv.request("PUT", "/v1/threads/th-m/memento", edited, {
        ...asA,
        "if-match": `${etag}, ${starTag}`,
      });
      expect(staleList.status).toBe(412);
      expect(staleList.json.error.details.currentEtag).toBe(listed.headers.get("etag"));
      const starMissing = await srv.request(
        "PUT",
        "/v1/threads/th-none/memento",
        { ...edited, threadId: "th-none" },
        {
          ...asA,
          "if-match": "*",
        },
      );
      // Nothing stored for If-Match to match: 404, as for another tenant's thread (api.md §2).
      expect(starMissing.status).toBe(404);
      const tagMissing = await srv.request(
        "PUT",
        "/v1/threads/th-none/memento",
        { ...edited, threadId: "th-none" },
        { ...asA, "if-match": '"v1"' },
      );
      expect(tagMissing.status).toBe(404);
      const restored = await srv.request("PUT", "/v1/threads/th-m/memento", edited, {
        ...asA,
        "if-match": listed.headers.get("etag") ?? "",
      });
      expect(restored.status).toBe(200);
      const restoredTag = restored.headers.get("etag");

      const wrongThread = await srv.request("PUT", "/v1/threads/other/memento", edited, {
        ...asA,
        "if-match": restoredTag ?? "",
      });
      expect(wrongThread.status).toBe(400);
      const invalid = await srv.request(
        "PUT",
        "/v1/threads/th-m/memento",
        { ...edited, arc: "" },
        { ...asA, "if-match": restoredTag ?? "" },
      );
      expect(invalid.status).toBe(400);
      expect(invalid.json.error.details.map((d: { path: string }) => d.path)).toContain("arc");
    });

    it("If-Match naming a version no memento can reach is a 412, not a server error", async () => {
      const turn = await srv.request(
        "POST",
        "/v1/chat",
        { requestId: "big-1", threadId: "th-big", message: "Let's plan a trip." },
        asA,
      );
      expect(turn.status).toBe(200);
      const got = await srv.request("GET", "/v1/threads/th-big/memento", undefined, asA);
      for (const tag of ['"v2147483648"', '"v99999999999999999999"', `"v${"9".repeat(400)}"`]) {
        const put = await srv.request("PUT", "/v1/threads/th-big/memento", got.json, {
          ...asA,
          "if-match": tag,
        });
        expect(put.status, tag).toBe(412);
        expect(put.json.error.details.currentEtag).toBe(got.headers.get("etag"));
      }
    });

    it("an id holding NUL names nothing: 404 on every route that takes one, never a server error", async () => {
      const requests: [string, string, unknown?][] = [
        ["GET", "/v1/threads/a%00b/memento"],
        ["GET", "/v1/traces/a%00b"],
        ["GET", "/v1/actions/a%00b"],
        ["POST", "/v1/actions/a%00b/defer", {}],
        ["GET", "/v1/tasks/a%00b"],
        ["POST", "/v1/tasks/a%00b/claim", {}],
        ["POST", "/v1/tasks/a%00b/complete", {}],
      ];
      for (const [method, path, body] of requests) {
        const res = await srv.request(method, path, body, asA);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.json.error.code).toBe("not_found");
      }
    });

    it("reads and writes the memento of a thread id of the full 128 characters, encoded or not", async () => {
      for (const [i, threadId] of ["t".repeat(128), "ü".repeat(128)].entries()) {
        const path = `/v1/threads/${encodeURIComponent(threadId)}/memento`;
        const turn = await srv.request(
          "POST",
          "/v1/chat",
          { requestId: `long-${i}`, threadId, message: "Plan a trip." },
          asA,
        );
        expect(turn.status).toBe(200);
        const got = await srv.request("GET", path, undefined, asA);
        expect(got.status).toBe(200);
        expect(got.json).toEqual(turn.json.threadMemento);
        const put = await srv.request(
          "PUT",
          path,
          { ...got.json, arc: "Edited" },
          { ...asA, "if-match": got.headers.get("etag") ?? "" },
        );
        expect(put.status).toBe(200);
      }
      const tooLong = await srv.request("GET", `/v1/threads/${"t".repeat(129)}/memento`, undefined, asA);
      expect(tooLong.status).toBe(400);
    });

    it("keeps tenants apart: another tenant's memento, trace and requestId are invisible", async () => {
      const turn = await srv.request(
        "POST",
        "/v1/chat",
        { requestId: "iso-1", threadId: "th-iso", message: "My secret plan." },
        asA,
      );
      expect(turn.status).toBe(200);
      expect((await srv.request("GET", "/v1/threads/th-iso/memento", undefined, asB)).status).toBe(404);
      expect(
        (await srv.request("GET", `/v1/traces/${turn.json.trace.traceRunId}`, undefined, asB)).status,
      ).toBe(404);
      expect(
        (await srv.request("GET", `/v1/traces/${turn.json.trace.traceRunId}`, undefined, asA)).status,
      ).toBe(200);
      // The same requestId in tenant B is a different transmission, not a replay of A's.
      const b = await srv.request(
        "POST",
        "/v1/chat",
        { requestId: "iso-1", threadId: "th-iso", message: "Other words." },
        asB,
      );
      expect(b.status).toBe(200);
      expect(b.headers.get("idempotent-replayed")).toBeNull();
      expect(b.json.transmissionId).not.toBe(turn.json.transmissionId);
    });
  });
}
