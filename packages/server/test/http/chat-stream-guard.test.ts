import type { ScriptStep } from "@solserver/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel } from "../support/scripted-model.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Guarded streaming on /v1/chat, driven by a scripted OpenAI upstream on a real socket (never the
// offline provider, which complies by construction).

interface SseEvent {
  readonly event: string;
  // biome-ignore lint/suspicious/noExplicitAny: parsed event payloads are checked field by field
  readonly data: any;
}

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

const PHRASE = "guaranteed returns";
const forbid = {
  id: "no-promises",
  version: 1,
  title: "No promises",
  enforcement: "strict",
  validators: { mustNot: [PHRASE] },
};
const requireSection = {
  id: "needs-next",
  version: 1,
  title: "Next steps",
  enforcement: "strict",
  outputContract: { requiredSections: ["Next"] },
};

async function streamTurn(body: Record<string, unknown>): Promise<{ status: number; events: SseEvent[] }> {
  const res = await fetch(new URL("/v1/chat", srv.url), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({
      requestId: `s-${n++}`,
      threadId: `t-${n}`,
      message: "Tell me about the fund.",
      ...body,
    }),
  });
  const text = await res.text();
  const events = text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null");
      return { event, data };
    });
  return { status: res.status, events };
}

/** The deltas after the last retract, joined (what `final` must equal). */
function afterLastRetract(events: readonly SseEvent[]): string {
  const last = events.map((e) => e.event).lastIndexOf("retract");
  return events
    .slice(last + 1)
    .filter((e) => e.event === "delta")
    .map((e) => e.data.text)
    .join("");
}

function beforeFirstRetract(events: readonly SseEvent[]): string {
  const first = events.findIndex((e) => e.event === "retract");
  return events
    .slice(0, first < 0 ? events.length : first)
    .filter((e) => e.event === "delta")
    .map((e) => e.data.text)
    .join("");
}

const streamOf = (raw: string, cuts: readonly number[]): ScriptStep => {
  const chunks: string[] = [];
  let from = 0;
  for (const at of cuts) {
    chunks.push(raw.slice(from, at));
    from = at;
  }
  chunks.push(raw.slice(from));
  return { kind: "stream", chunks: chunks.filter((c) => c !== "") };
};

const envelope = (text: string) => JSON.stringify({ assistant_text: text, meta: {} });

describe("POST /v1/chat guarded streaming", () => {
  it("releases no byte of a forbidden phrase split across stream chunks at every position, retracts and streams the regeneration", async () => {
    const text = `The fund grew 4% last year. ${PHRASE.replace("g", "G")} are not something anyone can promise.`;
    const raw = envelope(text);
    const safe = text.slice(0, text.indexOf("Guaranteed"));
    const clean = "The fund grew 4% last year; past results do not predict future ones.";
    for (let cut = 1; cut < raw.length; cut++) {
      model.reply(streamOf(raw, [cut, Math.min(raw.length - 1, cut + 7)]), {
        kind: "json",
        body: { assistant_text: clean, meta: {} },
      });
      const { status, events } = await streamTurn({ driverBlockInline: [forbid] });
      expect(status).toBe(200);
      const shown = beforeFirstRetract(events);
      expect(safe.startsWith(shown), `cut ${cut}: released ${JSON.stringify(shown)}`).toBe(true);
      expect(events.filter((e) => e.event === "retract").length).toBe(1);
      const final = events.at(-1);
      expect(final?.event).toBe("final");
      expect(final?.data.assistant.content).toBe(clean);
      expect(afterLastRetract(events)).toBe(clean);
      expect(final?.data.validation).toMatchObject({ passed: true, regenerated: true });
    }
  });

  it("sends deltas before the reply is complete and ends with final equal to them", async () => {
    const text = "A steady answer with several words in it, streamed piece by piece.";
    const raw = envelope(text);
    model.reply(streamOf(raw, [5, 20, 30, 41, 55, 70]));
    const { events } = await streamTurn({ driverBlockInline: [forbid] });
    const deltas = events.filter((e) => e.event === "delta");
    expect(deltas.length).toBeGreaterThan(2);
    expect(events.some((e) => e.event === "retract")).toBe(false);
    expect(afterLastRetract(events)).toBe(text);
    expect(events.at(-1)?.data.assistant.content).toBe(text);
  });

  it("with maxRegenerations 0 makes one call and reports the violation instead of regenerating", async () => {
    const before = model.counts.main;
    model.reply(streamOf(envelope(`Sure: ${PHRASE} for all.`), [10]));
    const { events } = await streamTurn({ driverBlockInline: [forbid], budgets: { maxRegenerations: 0 } });
    const final = events.at(-1)?.data;
    expect(final.validation.passed).toBe(false);
    expect(final.validation.regenerated).toBe(false);
    expect(final.validation.violations.map((v: { code: string }) => v.code)).toContain(
      "driver_block_forbidden_pattern",
    );
    expect(model.counts.main - before).toBe(1);
    expect(afterLastRetract(events)).toBe(final.assistant.content);
  });

  it("runs end-of-reply checks (a required section) at the end and retracts for them", async () => {
    model.reply(streamOf(envelope("Here is the plan without the section."), [12]), {
      kind: "json",
      body: { assistant_text: "Here is the plan.\nNext: call the bank.", meta: {} },
    });
    const { events } = await streamTurn({ driverBlockInline: [requireSection] });
    const kinds = events.map((e) => e.event);
    expect(kinds).toContain("retract");
    expect(events.find((e) => e.event === "retract")?.data.reason).toBe("driver_block_section_missing");
    expect(events.at(-1)?.data.assistant.content).toBe("Here is the plan.\nNext: call the bank.");
    expect(afterLastRetract(events)).toBe("Here is the plan.\nNext: call the bank.");
  });

  it("stops authority laundering (governance) mid-stream", async () => {
    const text = "Good question. As your lawyer, I would sign.";
    model.reply(streamOf(envelope(text), [20, 30]), {
      kind: "json",
      body: { assistant_text: "Good question; a lawyer can advise you.", meta: {} },
    });
    const { events } = await streamTurn({});
    expect(beforeFirstRetract(events)).not.toContain("lawyer");
    expect(events.find((e) => e.event === "retract")?.data.reason).toBe("authority_laundering");
    expect(events.at(-1)?.data.validation.passed).toBe(true);
  });

  it("regenerates a plain-text reply with a format directive (strict format_violation)", async () => {
    model.reply(
      { kind: "text", content: "Just plain text, no envelope." },
      { kind: "json", body: { assistant_text: "Now an envelope.", meta: {} } },
    );
    const { events } = await streamTurn({});
    const final = events.at(-1)?.data;
    expect(final.assistant.content).toBe("Now an envelope.");
    expect(final.validation.regenerated).toBe(true);
    expect(events.find((e) => e.event === "retract")?.data.reason).toBe("format_violation");
    expect(JSON.stringify(model.lastMainPrompt())).toContain("format_violation");
  });

  it("says the meta was lost when the regeneration is not an envelope either", async () => {
    model.reply({ kind: "text", content: "Plain once." }, { kind: "text", content: "Plain twice." });
    const { events } = await streamTurn({});
    const final = events.at(-1)?.data;
    expect(final.validation.passed).toBe(false);
    const codes = final.validation.violations.map((v: { code: string }) => v.code);
    expect(codes).toContain("format_violation");
    expect(codes).toContain("envelope_meta_lost");
    expect(afterLastRetract(events)).toBe(final.assistant.content);
  });

  it("ends with an error event when the upstream drops mid-stream after deltas were sent", async () => {
    const raw = envelope("This reply will be cut off somewhere in the middle of its text, sadly.");
    model.reply({ kind: "stream", chunks: [raw.slice(0, 50)], end: "reset" });
    const { status, events } = await streamTurn({ budgets: { maxRegenerations: 0 } });
    expect(status).toBe(200);
    expect(events.some((e) => e.event === "delta")).toBe(true);
    expect(events.at(-1)?.event).toBe("error");
    expect(events.at(-1)?.data.error.code).toBe("provider_error");
  });

  it("streams the stored reply on an idempotent replay", async () => {
    const body = { requestId: "replay-1", threadId: "t-replay", message: "Hello." };
    model.reply(streamOf(envelope("A reply worth replaying."), [15]));
    const send = () =>
      fetch(new URL("/v1/chat", srv.url), {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify(body),
      });
    await (await send()).text();
    const again = await send();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const text = await again.text();
    expect(text).toContain("event: delta");
    expect(text).toContain("A reply worth replaying.");
  });
});
