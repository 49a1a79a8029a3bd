import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASK_PAGE_LIMIT } from "../../src/http/routes/tasks.js";
import { createAgencyStore } from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Tasks are never deleted: a tenant that runs for weeks has ever more of them, and one GET must not
// read, hold and serialise the whole list.
describe("GET /v1/tasks answers in bounded pages", () => {
  let s: TestServer;
  const total = TASK_PAGE_LIMIT + 3;
  const ids: string[] = [];
  beforeAll(async () => {
    s = await startTestServer({ backend: "sqlite-memory" });
    const { tasks } = createAgencyStore(s.server.store);
    for (let i = 0; i < total; i++) {
      const id = `task_${String(i).padStart(5, "0")}`;
      await tasks.addTask(
        "default",
        { type: "explore", title: `Task ${i}` },
        { taskId: id, allowUnfinalized: true, nowMs: 1_750_000_000_000 + i },
      );
      ids.push(id);
    }
  });
  afterAll(async () => {
    await s.close();
  });

  const idsOf = (reply: { json: { tasks: { id: string }[] } }) => reply.json.tasks.map((t) => t.id);

  it(`gives at most ${TASK_PAGE_LIMIT} tasks without a limit, oldest first, and where to go on`, async () => {
    const first = await s.request("GET", "/v1/tasks");
    expect(first.status).toBe(200);
    expect(idsOf(first)).toEqual(ids.slice(0, TASK_PAGE_LIMIT));
    expect(first.json.nextAfter).toBe(ids[TASK_PAGE_LIMIT - 1]);
    const rest = await s.request("GET", `/v1/tasks?after=${first.json.nextAfter}`);
    expect(idsOf(rest)).toEqual(ids.slice(TASK_PAGE_LIMIT));
    expect(rest.json).not.toHaveProperty("nextAfter");
  });

  it("pages a status filter the same way, with a smaller limit", async () => {
    const page = await s.request("GET", "/v1/tasks?status=pending,active&limit=2");
    expect(idsOf(page)).toEqual(ids.slice(0, 2));
    expect(page.json.nextAfter).toBe(ids[1]);
    const last = await s.request("GET", `/v1/tasks?status=pending&limit=3&after=${ids[total - 4]}`);
    expect(idsOf(last)).toEqual(ids.slice(total - 3));
    expect(last.json).not.toHaveProperty("nextAfter");
    expect(idsOf(await s.request("GET", "/v1/tasks?status=completed"))).toEqual([]);
  });

  it("reads a repeated status as a list, as the comma-separated form", async () => {
    const repeated = await s.request("GET", "/v1/tasks?status=completed&status=pending&limit=2");
    expect(repeated.status).toBe(200);
    expect(idsOf(repeated)).toEqual(ids.slice(0, 2));
    const bad = await s.request("GET", "/v1/tasks?status=pending&status=nope");
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("invalid_input");
  });

  it("refuses a limit above the page bound or below 1 with 400", async () => {
    for (const query of [
      `limit=${TASK_PAGE_LIMIT + 1}`,
      "limit=0",
      "limit=x",
      "after=",
      "limit=",
      "limit=0x10",
    ]) {
      const reply = await s.request("GET", `/v1/tasks?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.json.error.code).toBe("invalid_input");
    }
  });
});
