import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announcePgSkip, pgTestsDisabled } from "../support/pg.js";
import { startScriptedModel } from "../support/scripted-model.js";
import { type Backend, startTestServer, type TestServer } from "../support/test-server.js";

// Issue 23, item 3: runtime-created Driver Blocks. The assistant proposes one (`create_driver_block`),
// Approve stores it for the tenant, and from the next turn on it validates replies like an inline block;
// disabled or deleted, it no longer does. Replies come from a scripted upstream, so a violating reply
// is a real one the server has to catch.

type Violation = { code: string };
const A = { authorization: "Bearer key-blocks-a" };
const B = { authorization: "Bearer key-blocks-b" };
const SUMMARY_BLOCK = {
  id: "end-with-summary",
  version: 1,
  title: "End with Summary",
  promptConstraints: ["End every reply with a Summary section."],
  outputContract: { requiredSections: ["Summary"] },
};
const WITHOUT = "Here is the plan: call the bank first.";
const WITH = "Here is the plan: call the bank first.\nSummary: call the bank.";

announcePgSkip("driver-blocks");
const backends: Backend[] = pgTestsDisabled() ? ["sqlite-memory"] : ["sqlite-memory", "postgres"];

describe.each(backends)("runtime Driver Blocks on %s", (backend) => {
  let srv: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let n = 0;
  beforeAll(async () => {
    model = await startScriptedModel();
    srv = await startTestServer({
      backend,
      provider: model.provider,
      env: { SOL_API_KEYS: "alpha:key-blocks-a,beta:key-blocks-b" },
    });
  });
  afterAll(async () => {
    await srv.close();
    await model.close();
  });

  const chat = (message: string, extra: object = {}, headers = A) =>
    srv.request(
      "POST",
      "/v1/chat",
      {
        requestId: `blk-${backend}-${++n}`,
        threadId: "th-blocks",
        message,
        traceConfig: { level: "debug" },
        ...extra,
      },
      headers,
    );
  const say = (...texts: string[]) => {
    model.reply(
      ...texts.map((text) => ({ kind: "json" as const, body: { assistant_text: text, meta: {} } })),
    );
  };
  async function propose(payload: object, headers = A) {
    model.reply({
      kind: "json",
      body: {
        assistant_text: "I can keep that rule for you.",
        meta: {
          action_needed: [
            {
              action_kind: "create_driver_block",
              action_label: "Be nicer",
              action_summary_bullets: ["Nothing much will change"],
              action_payload: payload,
            },
          ],
        },
      },
    });
    const res = await chat("From now on always end with a summary", {}, headers);
    expect(res.status).toBe(200);
    return res.json.actions as { action_id: string; action_kind: string; action_summary_bullets: string[] }[];
  }
  const approve = (actionId: string, headers = A) =>
    srv.request("POST", "/v1/actions/execute", { action_id: actionId, request_id: `ok-${++n}` }, headers);
  /** One turn whose first reply lacks the Summary section and must not be regenerated. */
  async function violatingTurn(headers = A) {
    say(WITHOUT);
    const res = await chat("What is the plan?", { budgets: { maxRegenerations: 0 } }, headers);
    expect(res.status).toBe(200);
    expect(res.json.assistant.content).toBe(WITHOUT);
    return res.json.validation as { passed: boolean; violations: Violation[] };
  }
  const sectionMissing = (validation: { violations: Violation[] }) =>
    validation.violations.some((v) => v.code === "driver_block_section_missing");

  it("propose → Approve → the next turn enforces the block; disabled or deleted it does not", async () => {
    expect(sectionMissing(await violatingTurn())).toBe(false);

    const [action] = await propose(SUMMARY_BLOCK);
    expect(action?.action_kind).toBe("create_driver_block");
    // The chip says what the block requires, from the block itself rather than the model's bullets.
    expect(action?.action_summary_bullets).toEqual([
      'Every reply has a section: "Summary"',
      "The assistant is told: End every reply with a Summary section.",
    ]);
    expect((await srv.request("GET", "/v1/driver-blocks", undefined, A)).json.driverBlocks).toEqual([]);

    const done = await approve(action?.action_id ?? "");
    expect(done.json).toMatchObject({ status: "succeeded" });
    expect(done.json.receipt.summary).toContain('"End with Summary" v1');
    const listed = await srv.request("GET", "/v1/driver-blocks", undefined, A);
    expect(listed.json.driverBlocks).toEqual([
      expect.objectContaining({
        id: "end-with-summary",
        version: 1,
        enabled: true,
        summary: action?.action_summary_bullets,
      }),
    ]);

    const flagged = await violatingTurn();
    expect(flagged.passed).toBe(false);
    expect(sectionMissing(flagged)).toBe(true);
    expect(JSON.stringify(model.lastMainPrompt())).toContain("End every reply with a Summary section.");

    // With a regeneration allowed, the violating reply is replaced by the compliant one.
    say(WITHOUT, WITH);
    const regenerated = await chat("And the plan?");
    expect(regenerated.json.assistant.content).toBe(WITH);
    expect(regenerated.json.validation).toMatchObject({ passed: true, regenerated: true });
    const policy = regenerated.json.trace.events.find((e: { phase: string }) => e.phase === "policy");
    expect(policy?.metadata.stored).toEqual([{ id: "end-with-summary", version: 1 }]);

    // Another tenant neither sees nor is bound by it.
    expect((await srv.request("GET", "/v1/driver-blocks", undefined, B)).json.driverBlocks).toEqual([]);
    expect(sectionMissing(await violatingTurn(B))).toBe(false);
    const path = "/v1/driver-blocks/end-with-summary";
    expect((await srv.request("PATCH", path, { enabled: false }, B)).status).toBe(404);
    expect((await srv.request("DELETE", path, undefined, B)).status).toBe(404);

    const off = await srv.request("PATCH", path, { enabled: false }, A);
    expect(off.status).toBe(200);
    expect(off.json.driverBlock).toMatchObject({ id: "end-with-summary", enabled: false, version: 1 });
    expect(sectionMissing(await violatingTurn())).toBe(false);
    expect((await srv.request("PATCH", path, { enabled: true }, A)).json.driverBlock.enabled).toBe(true);
    expect(sectionMissing(await violatingTurn())).toBe(true);

    expect((await srv.request("DELETE", path, undefined, A)).status).toBe(204);
    expect(sectionMissing(await violatingTurn())).toBe(false);
    expect((await srv.request("GET", "/v1/driver-blocks", undefined, A)).json.driverBlocks).toEqual([]);
    expect((await srv.request("DELETE", path, undefined, A)).status).toBe(404);
    expect((await srv.request("PATCH", path, { enabled: "yes" }, A)).status).toBe(400);
  });

  it('"Not now" stores nothing', async () => {
    const [action] = await propose(
      { ...SUMMARY_BLOCK, id: "never-synergy", validators: { mustNot: ["synergy"] } },
      B,
    );
    const deferred = await srv.request("POST", `/v1/actions/${action?.action_id}/defer`, {}, B);
    expect(deferred.json.status).toBe("deferred");
    expect((await srv.request("GET", "/v1/driver-blocks", undefined, B)).json.driverBlocks).toEqual([]);
    say("Pure synergy.");
    const res = await chat("hi", { budgets: { maxRegenerations: 0 } }, B);
    expect(res.json.validation.violations).toEqual([]);
  });

  it("holds proposals to the inline limits: a bad block is never shown, a fourth block is refused", async () => {
    expect(await propose({ id: "bad", version: 1, validators: { mustNot: ["*"] } }, B)).toEqual([]);
    expect(await propose({ id: "receipt-release", version: 1, promptConstraints: ["x"] }, B)).toEqual([]);
    const ids: string[] = [];
    for (const id of ["r1", "r2", "r3", "r4"]) {
      const [action] = await propose({ id, version: 1, promptConstraints: [`Rule ${id}.`] }, B);
      ids.push(action?.action_id ?? "");
    }
    for (const actionId of ids.slice(0, 3))
      expect((await approve(actionId, B)).json.status).toBe("succeeded");
    const fourth = await approve(ids[3] ?? "", B);
    expect(fourth.json.status).toBe("failed");
    expect(fourth.json.error.reason).toContain("the limit is 3");
    // Three stored blocks and one inline block are more than a turn takes: a clear 400.
    const over = await chat("hi", { driverBlockInline: [{ id: "mine", version: 1 }] }, B);
    expect(over.status).toBe(400);
    expect(over.json.error.code).toBe("driver_block_limit");
    await srv.request("PATCH", "/v1/driver-blocks/r1", { enabled: false }, B);
    const turnedOn = await srv.request("PATCH", "/v1/driver-blocks/r1", { enabled: true }, B);
    expect(turnedOn.json.driverBlock.enabled).toBe(true);
  });
});
