import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel } from "../support/scripted-model.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The validators a turn enforces, driven by violating replies from a scripted OpenAI upstream on a
// real socket (never the offline provider, which complies by construction). Each case fails when the
// check it names is taken out of lintOutput: the violating reply would then pass as it is.

let model: Awaited<ReturnType<typeof startScriptedModel>>;
let srv: TestServer;
let n = 0;

beforeAll(async () => {
  model = await startScriptedModel();
  srv = await startTestServer({ backend: "sqlite-memory", provider: model.provider });
});
afterAll(async () => {
  await srv.close();
  await model.close();
});

const reply = (text: string) => ({ kind: "json" as const, body: { assistant_text: text, meta: {} } });

interface Case {
  readonly name: string;
  readonly code: string;
  readonly packet: Record<string, unknown>;
  readonly violating: string;
  readonly compliant: string;
}

const CASES: readonly Case[] = [
  {
    name: "Driver Block `required` phrase",
    code: "driver_block_required_missing",
    packet: {
      message: "Plan my week.",
      driverBlockInline: [
        { id: "sign-off", version: 1, enforcement: "strict", validators: { required: ["take care"] } },
      ],
    },
    violating: "Monday: groceries. Tuesday: gym.",
    compliant: "Monday: groceries. Tuesday: gym. Take care.",
  },
  {
    name: "Driver Block `must_have_any` phrases",
    code: "driver_block_missing_any",
    packet: {
      message: "How do I get my money back?",
      driverBlockInline: [
        {
          id: "proof",
          version: 1,
          enforcement: "strict",
          validators: { mustHaveAny: [["receipt", "invoice", "order number"]] },
        },
      ],
    },
    violating: "Ask the shop politely.",
    compliant: "Ask the shop politely and bring the receipt.",
  },
  {
    name: "rigor gates (a legal question: high rigor, facts, assumptions, decisions and next)",
    code: "rigor_grounding_missing",
    packet: { message: "Should I sign the lease for my flat?" },
    violating: "Sign it, it looks fine.",
    compliant:
      "Facts: the lease runs 12 months.\nAssumption: the rent is fixed.\nDecisions: none yet.\nNext: read the break clause.",
  },
  {
    name: "claimed action without a receipt (governance floor, no blocks)",
    code: "claimed_action_without_receipt",
    packet: { message: "Get me a table for two tonight.", driverBlockMode: "custom" },
    violating: "Done: I booked a table for two at 7pm.",
    compliant: "I can suggest a place; would you like me to propose a booking for you to approve?",
  },
];

describe("server validation against violating upstream replies", () => {
  for (const c of CASES) {
    it(`${c.name}: maxRegenerations 0 reports ${c.code}; otherwise one regeneration replaces the reply`, async () => {
      model.reply(reply(c.violating));
      const once = await srv.request("POST", "/v1/chat", {
        requestId: `v-${n++}`,
        threadId: `vt-${n}`,
        ...c.packet,
        budgets: { maxRegenerations: 0 },
      });
      expect(once.status).toBe(200);
      expect(once.json.assistant.content).toBe(c.violating);
      expect(once.json.validation).toMatchObject({ passed: false, regenerated: false });
      const codes = once.json.validation.violations.map((v: { code: string }) => v.code);
      expect(codes).toContain(c.code);

      const before = model.counts.main;
      model.reply(reply(c.violating), reply(c.compliant));
      const twice = await srv.request("POST", "/v1/chat", {
        requestId: `v-${n++}`,
        threadId: `vt-${n}`,
        ...c.packet,
      });
      expect(twice.status).toBe(200);
      expect(model.counts.main - before).toBe(2);
      expect(twice.json.assistant.content).toBe(c.compliant);
      expect(twice.json.validation).toMatchObject({ passed: true, regenerated: true });
      // The regeneration was told what to fix.
      expect(JSON.stringify(model.lastMainPrompt())).toContain(c.code);
    });
  }
});
