import type { ScriptStep } from "@solserver/harness";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel } from "../../../server/test/support/scripted-model.js";
import {
  type ChatStreamEvent,
  type ChatStreamView,
  EMPTY_STREAM_VIEW,
  foldStream,
  MemoryQueueStore,
  SolClient,
  streamingSend,
  TransmissionQueue,
} from "../../src/index.js";
import { startTestServer, type TestServer } from "../support/real-server.js";

// chatStream against the real server's guarded stream, with a scripted OpenAI upstream on a real
// socket pacing the model's tokens (never the offline provider, which complies by construction).

let model: Awaited<ReturnType<typeof startScriptedModel>>;
let srv: TestServer;
let client: SolClient;
let n = 0;

beforeAll(async () => {
  model = await startScriptedModel();
  srv = await startTestServer({ backend: "sqlite-memory", provider: model.provider });
  client = new SolClient({ baseUrl: srv.url, timeoutMs: 10_000 });
});
afterAll(async () => {
  await srv?.close();
  await model?.close();
});

const PHRASE = "guaranteed returns";
const forbid = {
  id: "no-promises",
  version: 1,
  title: "No promises",
  enforcement: "strict" as const,
  validators: { mustNot: [PHRASE] },
};

/** An envelope's JSON cut into pieces of about `size` characters (tokens as a model sends them). */
function envelopeChunks(text: string, size = 12): string[] {
  const raw = JSON.stringify({ assistant_text: text, meta: {} });
  const chunks: string[] = [];
  for (let i = 0; i < raw.length; i += size) chunks.push(raw.slice(i, i + size));
  return chunks;
}

const packet = (message: string, extra: Record<string, unknown> = {}) => ({
  requestId: `cs-${++n}`,
  threadId: `cs-thread-${n}`,
  message,
  ...extra,
});

/** Every event with the view folded up to and including it. */
async function foldAll(
  stream: AsyncIterable<ChatStreamEvent>,
): Promise<Array<{ event: ChatStreamEvent; view: ChatStreamView }>> {
  const out: Array<{ event: ChatStreamEvent; view: ChatStreamView }> = [];
  let view = EMPTY_STREAM_VIEW;
  for await (const event of stream) {
    view = foldStream(view, event);
    out.push({ event, view });
  }
  return out;
}

describe("SolClient.chatStream against SolServer's guarded stream", () => {
  it("yields the first delta while the upstream is still holding the rest of the reply", async () => {
    let releaseUpstream!: () => void;
    const upstreamHeld = new Promise<void>((resolve) => {
      releaseUpstream = resolve;
    });
    let upstreamReleased = false;
    // Never hang the suite: a client that buffers the whole body sees its first delta only after this.
    const safety = setTimeout(() => {
      upstreamReleased = true;
      releaseUpstream();
    }, 5_000);
    const text =
      "Start with the smallest step you can finish today, then write down the next one before you stop.";
    const step: ScriptStep = { kind: "stream", chunks: envelopeChunks(text), waitFor: upstreamHeld };
    model.reply(step);

    let firstDeltaWhileHeld: boolean | null = null;
    const events: ChatStreamEvent[] = [];
    for await (const event of client.chatStream(packet("How do I start?"))) {
      if (event.type === "delta" && firstDeltaWhileHeld === null) {
        firstDeltaWhileHeld = !upstreamReleased;
        upstreamReleased = true;
        releaseUpstream();
      }
      events.push(event);
    }
    clearTimeout(safety);

    expect(firstDeltaWhileHeld).toBe(true);
    const final = events.at(-1);
    expect(final?.type).toBe("final");
    if (final?.type !== "final") return;
    expect(final.response.assistant.content).toBe(text);
    const deltas = events.filter((e) => e.type === "delta");
    expect(deltas.map((e) => e.text).join("")).toBe(text);
    // `shown` is the running join of the deltas.
    expect(deltas.at(-1)?.shown).toBe(text);
  });

  it("retracts the shown text when the guard finds a forbidden phrase and ends on the regenerated reply", async () => {
    const bad = `The fund grew four percent last year, which is steady. It offers ${PHRASE} to every saver.`;
    const clean = "The fund grew four percent last year; past results do not predict future ones.";
    model.reply(
      { kind: "stream", chunks: envelopeChunks(bad, 8), intervalMs: 5 },
      { kind: "stream", chunks: envelopeChunks(clean, 8), intervalMs: 5 },
    );
    const steps = await foldAll(
      client.chatStream(packet("Tell me about the fund.", { driverBlockInline: [forbid] })),
    );
    const kinds = steps.map((s) => s.event.type);
    const retractAt = kinds.indexOf("retract");
    expect(retractAt).toBeGreaterThan(0);
    const beforeRetract = steps[retractAt - 1]?.view;
    expect(beforeRetract?.text.length).toBeGreaterThan(0);
    expect(bad.startsWith(beforeRetract?.text ?? "x")).toBe(true);
    expect(beforeRetract?.text).not.toContain(PHRASE);

    const atRetract = steps[retractAt];
    expect(atRetract?.event).toMatchObject({ type: "retract", reason: "driver_block_forbidden_pattern" });
    expect(atRetract?.view).toMatchObject({ phase: "revising", text: "", retracts: 1 });
    // The regenerated deltas grow from nothing, never from the discarded text.
    const after = steps.slice(retractAt + 1).filter((s) => s.event.type === "delta");
    expect(after.length).toBeGreaterThan(0);
    for (const s of after) {
      expect(clean.startsWith(s.view.text)).toBe(true);
      expect(s.view.phase).toBe("revising");
    }
    const last = steps.at(-1);
    expect(last?.view).toMatchObject({ phase: "done", text: clean, retracts: 1 });
    expect(last?.view.response?.validation).toMatchObject({ passed: true, regenerated: true });
  });

  it("ends with a typed error event that keeps the shown text when the upstream drops mid-reply", async () => {
    const text = "This reply will be cut off somewhere in the middle of its text, which is a shame.";
    const raw = JSON.stringify({ assistant_text: text, meta: {} });
    model.reply({ kind: "stream", chunks: [raw.slice(0, 60)], end: "reset" });
    const steps = await foldAll(
      client.chatStream(packet("Tell me a story.", { budgets: { maxRegenerations: 0 } })),
    );
    const last = steps.at(-1);
    expect(steps.some((s) => s.event.type === "delta")).toBe(true);
    expect(last?.event.type).toBe("error");
    expect(last?.view.phase).toBe("failed");
    expect(last?.view.error).toMatchObject({ name: "SolClientError", code: "provider_error" });
    expect(last?.view.text.length).toBeGreaterThan(0);
    expect(text.startsWith(last?.view.text ?? "x")).toBe(true);
  });

  it("ends with an error event, not a throw, when the server refuses the packet before streaming", async () => {
    const events: ChatStreamEvent[] = [];
    for await (const event of client.chatStream({ requestId: "cs-bad", threadId: "t", message: "" })) {
      events.push(event);
    }
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", shown: "", error: { code: "invalid_input" } });
  });

  it("delivers queued messages through the stream: the listener sees deltas and the queue keeps the final", async () => {
    const text = "Queued, then streamed: the reply arrives piece by piece and is kept once it is final.";
    model.reply({ kind: "stream", chunks: envelopeChunks(text), intervalMs: 2 });
    const seen: string[] = [];
    const queue = new TransmissionQueue({
      send: streamingSend(client, (event, transmission) =>
        seen.push(`${event.type}:${transmission.threadId}`),
      ),
      store: new MemoryQueueStore(),
      backoff: { baseMs: 1, maxMs: 5, factor: 2, jitter: 0.5 },
    });
    await queue.start();
    const { transmissionId } = queue.enqueue({ threadId: "cs-queued", message: "Stream this one." });
    await queue.drain();
    const transmission = queue.getTransmission(transmissionId);
    expect(transmission?.status).toBe("succeeded");
    expect(transmission?.response?.assistant.content).toBe(text);
    expect(seen.filter((s) => s === "delta:cs-queued").length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe("final:cs-queued");
    expect(queue.listMessages("cs-queued").map((m) => m.content)).toEqual(["Stream this one.", text]);
    await queue.stop();
  });
});
