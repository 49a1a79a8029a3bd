import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ActionNeeded } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseIcs, unescapeIcsText } from "../../support/ics-parse.js";
import { startScriptedModel } from "../../support/scripted-model.js";
import { type Backend, startTestServer, type TestServer } from "../../support/test-server.js";

const proposal = (kind: string, label: string, payload: Record<string, unknown>) => ({
  action_kind: kind,
  action_label: label,
  action_summary_bullets: [`${label}: ${String(payload.title ?? kind)}`],
  action_payload: payload,
});
const envelope = (text: string, actions: unknown[]) => ({
  kind: "json" as const,
  body: { assistant_text: text, meta: { action_needed: actions } },
});
const CALL_MOM = proposal("create_reminder", "Create Reminder", { title: "call mom", due: "6pm" });

/** Proposals from turns: the "not again unless asked" rule, calendar + .ics, webhook, with a scripted model. */
export function actionProposalSuite(backend: Backend): void {
  describe(`action proposals on ${backend}`, () => {
    let srv: TestServer;
    let model: Awaited<ReturnType<typeof startScriptedModel>>;
    let hook: Server;
    const hookCalls: unknown[] = [];
    let turn = 0;

    beforeAll(async () => {
      hook = createServer((req, res) => {
        let body = "";
        req.on("data", (c) => {
          body += c;
        });
        req.on("end", () => {
          hookCalls.push(JSON.parse(body));
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
      model = await startScriptedModel();
      srv = await startTestServer({
        backend,
        provider: model.provider,
        env: { SOL_WEBHOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/sol` },
      });
    });
    afterAll(async () => {
      await srv.close();
      await model.close();
      hook.closeAllConnections();
      await new Promise((resolve) => hook.close(resolve));
    });

    async function say(threadId: string, message: string, reply: ReturnType<typeof envelope>) {
      model.reply(reply);
      turn += 1;
      const res = await srv.request("POST", "/v1/chat", {
        requestId: `prop-${turn}`,
        threadId,
        message,
        traceConfig: { level: "debug" },
      });
      expect(res.status).toBe(200);
      return res.json as {
        actions: ActionNeeded[];
        trace: { events: { phase: string; metadata: Record<string, unknown> }[] };
      };
    }
    const execute = (actionId: string, requestId: string) =>
      srv.request("POST", "/v1/actions/execute", { action_id: actionId, request_id: requestId });

    it("does not propose the same action again unless the user asks again", async () => {
      const first = await say("th-mom", "Remind me to call mom at 6pm", envelope("Sure.", [CALL_MOM]));
      expect(first.actions).toHaveLength(1);
      const original = ActionNeeded.parse(first.actions[0]);

      const thanks = await say("th-mom", "thanks!", envelope("You're welcome.", [CALL_MOM]));
      expect(thanks.actions).toEqual([]);
      const gate = thanks.trace.events.find((e) => e.phase === "action_gate");
      expect(gate?.metadata).toMatchObject({ suppressed: 1, proposed: [] });

      await srv.request("POST", `/v1/actions/${original.action_id}/defer`, {});
      const chatter = await say("th-mom", "ok, what else is on today?", envelope("Not much.", [CALL_MOM]));
      expect(chatter.actions).toEqual([]);

      const asked = await say(
        "th-mom",
        "Actually, remind me to call mom at 6pm",
        envelope("Done asking.", [CALL_MOM]),
      );
      expect(asked.actions).toHaveLength(1);
      expect(asked.actions[0]?.action_id).not.toBe(original.action_id);

      const again = await say("th-mom", "do that again", envelope("Sure.", [CALL_MOM]));
      expect(again.actions).toHaveLength(1);

      // A different payload is a different action, and another thread is its own world.
      const otherTime = await say(
        "th-mom",
        "thanks",
        envelope("Ok.", [proposal("create_reminder", "Create Reminder", { title: "call mom", due: "7pm" })]),
      );
      expect(otherTime.actions).toHaveLength(1);
      const otherThread = await say("th-mom-2", "thanks", envelope("Ok.", [CALL_MOM]));
      expect(otherThread.actions).toHaveLength(1);
    });

    it("a failed action does not block proposing it again; one reply proposing it twice shows one chip", async () => {
      const doomed = proposal("teleport", "Teleport", { title: "to Mars" });
      const first = await say("th-doomed", "hmm", envelope("Let me try.", [doomed, doomed]));
      expect(first.actions).toHaveLength(1);
      const id = first.actions[0]?.action_id ?? "";
      expect((await execute(id, "doomed-1")).json.status).toBe("failed");
      const second = await say("th-doomed", "hmm", envelope("Let me try again.", [doomed]));
      expect(second.actions).toHaveLength(1);
      expect(second.actions[0]?.action_id).not.toBe(id);
    });

    it("drops a proposal the store cannot hold instead of failing the turn", async () => {
      const res = await say(
        "th-nul",
        "hi",
        envelope("Hi.", [proposal("create_reminder", "Bad\u0000label", { title: "x" })]),
      );
      expect(res.actions).toEqual([]);
      expect(res.trace.events.find((e) => e.phase === "action_gate" && e.metadata.reason)).toBeDefined();
    });

    it("an approved calendar event is listed and exported as a valid iCalendar file", async () => {
      const title = "Dentist; check-up, room 4";
      const res = await say(
        "th-cal",
        "Put the dentist on my calendar for March 3 at 9",
        envelope("I can add that.", [
          proposal("create_calendar_event", "Add to Calendar", {
            title,
            start: "2026-03-03T09:00:00+01:00",
            end: "2026-03-03T10:00:00+01:00",
            location: "Main St. 1, Springfield",
          }),
          proposal("create_calendar_event", "Add to Calendar", { title: "Holiday", start: "2026-03-10" }),
        ]),
      );
      expect(res.actions).toHaveLength(2);
      for (const [i, action] of res.actions.entries()) {
        const done = await execute(action.action_id, `cal-${i}`);
        expect(done.json.status).toBe("succeeded");
      }
      const listed = await srv.request("GET", "/v1/calendar/events?thread_id=th-cal");
      expect(listed.status).toBe(200);
      expect(listed.json.events.map((e: { title: string; start: string }) => [e.title, e.start])).toEqual([
        [title, "2026-03-03T08:00:00.000Z"],
        ["Holiday", "2026-03-10"],
      ]);

      const ics = await srv.request("GET", "/v1/calendar/events.ics?thread_id=th-cal");
      expect(ics.status).toBe(200);
      expect(ics.headers.get("content-type")).toMatch(/^text\/calendar/);
      const cal = parseIcs(ics.text);
      expect(cal.name).toBe("VCALENDAR");
      expect(cal.props.get("VERSION")).toEqual(["2.0"]);
      const events = cal.children.filter((c) => c.name === "VEVENT");
      expect(events).toHaveLength(2);
      for (const event of events) {
        for (const prop of ["UID", "DTSTAMP", "SUMMARY"]) expect(event.props.get(prop)).toHaveLength(1);
        expect(event.props.get("DTSTAMP")?.[0]).toMatch(/^\d{8}T\d{6}Z$/);
      }
      const [timed, allDay] = events;
      expect(unescapeIcsText(timed?.props.get("SUMMARY")?.[0] ?? "")).toBe(title);
      expect(timed?.props.get("DTSTART")).toEqual(["20260303T080000Z"]);
      expect(timed?.props.get("DTEND")).toEqual(["20260303T090000Z"]);
      expect(unescapeIcsText(timed?.props.get("LOCATION")?.[0] ?? "")).toBe("Main St. 1, Springfield");
      expect(allDay?.props.get("DTSTART;VALUE=DATE")).toEqual(["20260310"]);
      expect(new Set(events.map((e) => e.props.get("UID")?.[0])).size).toBe(2);
    });

    it("an approved webhook is POSTed once to SOL_WEBHOOK_URL", async () => {
      const res = await say(
        "th-hook",
        "send the webhook",
        envelope("Ready.", [proposal("webhook", "Notify team", { title: "deploy", env: "prod" })]),
      );
      const id = res.actions[0]?.action_id ?? "";
      const first = await execute(id, "hook-1");
      expect(first.json).toMatchObject({
        status: "succeeded",
        receipt: { summary: expect.stringMatching(/HTTP 204/) },
      });
      expect((await execute(id, "hook-1")).json).toEqual(first.json);
      expect(hookCalls).toEqual([
        { action_id: id, thread_id: "th-hook", data: { title: "deploy", env: "prod" } },
      ]);
    });
  });

  describe(`offline reminders on ${backend}`, () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer({ backend });
    });
    afterAll(async () => {
      await srv.close();
    });

    it("asking twice gives two chips; replaying one request gives the same chip and stores nothing new", async () => {
      const packet = {
        requestId: "off-1",
        threadId: "th-off",
        message: "remind me to call the bank tomorrow at 9",
      };
      const first = await srv.request("POST", "/v1/chat", packet);
      const replay = await srv.request("POST", "/v1/chat", packet);
      expect(replay.json.actions).toEqual(first.json.actions);
      const second = await srv.request("POST", "/v1/chat", { ...packet, requestId: "off-2" });
      expect(second.json.actions).toHaveLength(1);
      expect(second.json.actions[0].action_id).not.toBe(first.json.actions[0].action_id);
      const rows = await srv.server.store.db
        .selectFrom("actions")
        .select("action_id")
        .where("thread_id", "=", "th-off")
        .execute();
      expect(rows).toHaveLength(2);
      const chatter = await srv.request("POST", "/v1/chat", {
        requestId: "off-3",
        threadId: "th-off",
        message: "thanks",
      });
      expect(chatter.json.actions).toEqual([]);
    });
  });
}
